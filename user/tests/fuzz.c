/*
 * /bin/fuzz: a seeded, reproducible system-call fuzzer.
 *
 * The parent never makes a random call itself. It forks children, each with
 * a seed derived from the run's seed, and each child makes CALLS_PER_CHILD
 * calls chosen by its own random stream: a number from the kernel's list
 * (generated at build time from kernel/uapi/unistd.h, so every new syscall
 * is in the pool), an unknown number, or a probe whose answer is certain.
 * Arguments come from pools of good and bad values. Around every call the
 * child checks what the ABI promises: ebx, ecx, edx, esi, edi, ebp and esp
 * come back unchanged, and so does the direction flag; unknown numbers
 * answer -ENOSYS; bad pointers in the probes answer -EFAULT.
 *
 * Threads (issue 31): now and then a child runs a "thread storm": it clones
 * with random flags (mostly a thread's, with a fresh stack; sometimes a
 * process sharing its memory, or flags Linux refuses), and the new task and
 * the child both make futex calls with random operations on good and bad
 * addresses and touch a region that the child unmaps, protects or maps anew
 * under the other's feet. A thread that faults there exits alone (its
 * SIGSEGV handler); the kernel must neither report nor hang. fuzz_threads=0
 * leaves the storms out.
 *
 * Load, as an outside fuzzer brings it: more children than CPUs (3 x CPUs +
 * 3), some calls are big writes (up to 64 KiB) to the console or into a
 * pipe that a slow reader drains, and the parent now and then kills a
 * running child with SIGKILL. A killed child must be gone within a second
 * of every CPU's ticks (which a busy host machine cannot stretch), or the run
 * reports it; the kernel itself reports a task that waits a second for a
 * CPU ("INFO: task ... runnable but not picked"), which the harness counts
 * as a finding.
 *
 * A child that does not finish in time is killed and replayed once, printing
 * each call before making it, so the last line names the call that hangs.
 * Every report carries the child's seed: "fuzz_child=S" replays that child
 * alone, "fuzz_seed=S" the whole run (kernel command line words reach init's
 * environment; `make fuzz SEED=S`).
 *
 * Output: "fuzz: ..." lines; a register mismatch or a wrong answer prints
 * "fuzz: REGISTER MISMATCH" or "fuzz: WRONG ANSWER"; the last line is
 * "fuzz: summary ...". Exit status 0 unless something was wrong.
 */
#include <stdbool.h>

#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/futex.h"
#include "kernel/uapi/mman.h"
#include "kernel/uapi/sched.h"
#include "ulib.h"
#include <string.h>

struct call {
	const char *name;
	int nr;
};

/* The pool: every call the kernel knows (build/gen/fuzz_syscalls.h, written by the Makefile). */
static const struct call all_calls[] = {
#define FUZZ_CALL(name, nr) { #name, nr },
#include "fuzz_syscalls.h"
#undef FUZZ_CALL
};
#define NCALLS (int)(sizeof(all_calls) / sizeof(all_calls[0]))

/* Calls that would end the run rather than test the kernel: never made. */
static const char *const deny[] = { "exit", "exit_group", "reboot" };
/*
 * Calls that block until a signal comes (or kill the caller for a bad frame):
 * made only once in 256 draws, or every child would spend its time hung.
 */
static const char *const rarely[] = {
	"pause", "sigsuspend", "rt_sigsuspend", "sigreturn", "rt_sigreturn",
	/* FUTEX_WAIT on a word that holds the value given sleeps until a wake nobody sends. */
	"futex", "futex_time64",
};
/* Calls whose new child may share our memory: it exits at once, touching nothing (fuzz_raw_call). */
static const char *const new_child_exits[] = { "vfork", "clone", "clone3" };

#define CALLS_PER_CHILD 100
#define HANG_MS     10000               /* a child that takes longer is hung (a busy host slows all) */
#define DIE_TICKS   100                 /* a killed child must be gone within 1 s of every CPU's ticks */
#define DIE_NS      30000000000LL       /* ... and if the ticks cannot be read, within 30 s */
#define TICK_CPUS   16                  /* CPUs whose ticks the kill check reads */
#define PLANTED_SEED 0                  /* fuzz_selftest=1: the child of this seed hangs on purpose */
#define POLL_MS      5
#define MAX_SLOTS    51                 /* 3 x 16 CPUs + 3 */
#define KILL_EVERY_NS 500000000LL      /* the parent kills a running child this often (0.5 s) */
#define BIG_WRITE    65536
#define EXIT_MISMATCH 3
#define EXIT_WRONG    4

/* ---- random numbers: splitmix32, one stream per child ------------------- */

static uint32_t rng_state;

static uint32_t mix32(uint32_t z)
{
	z = (z ^ (z >> 16)) * 0x85EBCA6B;
	z = (z ^ (z >> 13)) * 0xC2B2AE35;
	return z ^ (z >> 16);
}

static uint32_t rnd(void)
{
	rng_state += 0x9E3779B9;
	return mix32(rng_state);
}

static uint32_t rnd_below(uint32_t n)
{
	return rnd() % n;
}

/* ---- the call itself, in assembly: the registers are what we check ------ */

struct regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp, eflags;
};

#define EFLAGS_DF 0x400

/* Read and written by fuzz_raw_call; one call at a time per process. */
struct regs fuzz_in, fuzz_out;
uint32_t fuzz_saved_esp;
uint32_t fuzz_child_exits;      /* nonzero: a 0 from this call means we are a new child: exit */
uint32_t fuzz_entry;            /* nonzero: enter by calling it (__kernel_vsyscall: sysenter), not int $0x80 */
extern void *__vsyscall;        /* the libc's: AT_SYSINFO, or NULL (user/lib/auxv.c) */

void fuzz_raw_call(void);
/*
 * Load eax and ebx..ebp from fuzz_in (and set DF if fuzz_in.eflags says so),
 * int $0x80 (or a call to fuzz_entry, the vsyscall page's sysenter), then
 * store every register, esp and eflags in fuzz_out before anything else can
 * change them. esp is compared with what it was at the int $0x80:
 * fuzz_saved_esp.
 */
__asm__(".text\n"
	".globl fuzz_raw_call\n"
	"fuzz_raw_call:\n"
	"	pushl %ebp\n"
	"	pushl %edi\n"
	"	pushl %esi\n"
	"	pushl %ebx\n"
	"	movl %esp, fuzz_saved_esp\n"
	"	testl $0x400, fuzz_in+32\n"
	"	jz 1f\n"
	"	std\n"
	"1:	movl fuzz_in+4, %ebx\n"
	"	movl fuzz_in+8, %ecx\n"
	"	movl fuzz_in+12, %edx\n"
	"	movl fuzz_in+16, %esi\n"
	"	movl fuzz_in+20, %edi\n"
	"	movl fuzz_in+24, %ebp\n"
	"	movl fuzz_in+0, %eax\n"
	"	movd fuzz_child_exits, %xmm0\n" /* the flag in a register, which a new child inherits */
	"	cmpl $0, fuzz_entry\n"         /* changes no flag we check (DF) */
	"	je 4f\n"
	"	call *fuzz_entry\n"
	"	jmp 5f\n"
	"4:	int $0x80\n"
	"5:	testl %eax, %eax\n"            /* changes no flag we check (DF) */
	"	jnz 2f\n"
	"	movd %xmm0, %eax\n"            /* not fuzz_child_exits: a CLONE_VM child reading it */
	"	testl %eax, %eax\n"            /* may see the parent's next call's 0 and run on */
	"	jz 3f\n"
	"	movl $1, %eax\n"               /* exit(0), on no stack, writing no memory: a new */
	"	xorl %ebx, %ebx\n"             /* thread (CLONE_THREAD) ends alone, not our process */
	"	int $0x80\n"
	"3:	xorl %eax, %eax\n"
	"2:	movl %eax, fuzz_out+0\n"
	"	movl %ebx, fuzz_out+4\n"
	"	movl %ecx, fuzz_out+8\n"
	"	movl %edx, fuzz_out+12\n"
	"	movl %esi, fuzz_out+16\n"
	"	movl %edi, fuzz_out+20\n"
	"	movl %ebp, fuzz_out+24\n"
	"	movl %esp, fuzz_out+28\n"
	"	pushfl\n"
	"	popl fuzz_out+32\n"
	"	cld\n"
	"	popl %ebx\n"
	"	popl %esi\n"
	"	popl %edi\n"
	"	popl %ebp\n"
	"	ret\n");

/* ---- argument pools -------------------------------------------------------- */

/*
 * What big writes send: NUL bytes, which a terminal shows as nothing, so the
 * console stays readable while its line is flooded.
 */
static const char big_buffer[BIG_WRITE];
static int pipe_out = -1;               /* this child's pipe to its slow reader, or -1 */

/* Memory the kernel may write through a "good" pointer: nothing else lives here. */
static char scratch[4 * 4096] __attribute__((aligned(4096)));
static const uint32_t bad_pointers[] = {
	0, 1, 0xC0000000, 0xC0100000, 0xFFFFFFF0, 0xFFFFFFFF, 0x40000000, 0xBFFFFFFC,
};
static const uint32_t interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 16, 64, 255, 256, 4095, 4096, 65536, 0x7FFFFFFF, 0x80000000,
	0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFF000,
};
static int self_pid, parent_pid;
static int planted_pid;                 /* the self-test's hanging child: no sibling may signal it */
static uint32_t image_end;              /* the break at start: our text, data and bss lie below */

/* A random value that is not an address inside our own image or stack (the kernel would write there). */
static uint32_t random_word(void)
{
	uint32_t v = rnd();
	uint32_t sp = fuzz_saved_esp ? fuzz_saved_esp : (uint32_t)&v;

	if ((v >= 0x08048000 && v < image_end + 65536) || (v >= sp - 65536 && v < 0xC0000000))
		v ^= 0x40000000;
	return v;
}

static uint32_t good_pointer(void)
{
	return (uint32_t)scratch + rnd_below(sizeof(scratch) - 256);
}

static uint32_t random_arg(void)
{
	switch (rnd_below(8)) {
	case 0: case 1:
		return interesting[rnd_below(sizeof(interesting) / sizeof(interesting[0]))];
	case 2:
		return rnd_below(32);
	case 3: case 4:
		return good_pointer();
	case 5:
		return bad_pointers[rnd_below(sizeof(bad_pointers) / sizeof(bad_pointers[0]))];
	case 6:
		return rnd_below(3) == 0 ? (uint32_t)self_pid : 99999;
	default:
		return random_word();
	}
}

/* What a good pointer points at: mostly small numbers, some edge values, some noise. */
static void fill_scratch(void)
{
	uint32_t *w = (uint32_t *)scratch;

	for (unsigned i = 0; i < sizeof(scratch) / 4; i++)
		w[i] = rnd_below(2) ? rnd_below(16) : random_arg();
}

static bool listed(const char *name, const char *const *list, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}
#define LISTED(name, list) listed((name), (list), sizeof(list) / sizeof((list)[0]))

static bool denied(const char *name)
{
	return LISTED(name, deny) || (LISTED(name, rarely) && rnd_below(256) != 0);
}

static bool in_scratch(uint32_t p)
{
	return p >= (uint32_t)scratch && p < (uint32_t)scratch + sizeof(scratch);
}

/* A pid argument that must not be the fuzzer, its parent, init, a group or everyone. */
static void tame_pid(uint32_t *a)
{
	int pid = (int)*a;

	/* Signalling itself now and then is fine: it ends this child early, that is all. */
	if (pid <= 0 || pid == parent_pid || pid == 1 || pid == planted_pid || (pid == self_pid && rnd_below(4)))
		*a = 99999;
}

/* Does [addr, addr+len) touch our image (text, data, bss, heap) or our stack? */
static bool madvise_hits_self(uint32_t addr, uint32_t len)
{
	uint64_t start = addr, end = (uint64_t)addr + len + 4095;
	uint32_t sp = fuzz_saved_esp ? fuzz_saved_esp : (uint32_t)&addr;
	uint32_t heap_end = (uint32_t)syscall(__NR_brk, 0);

	if (heap_end < image_end)
		heap_end = image_end;
	return (start < heap_end + 65536 && end > 0x08048000) || (start < 0xC0000000 && end > sp - 65536);
}

/*
 * Arguments that would hurt the run, not the kernel: signals for the fuzzer
 * or its parent (or everyone), sleeps of seconds, console writes of noise.
 * One sleep in 256 is left alone, so that the hang detector has work.
 */
static void tame(const char *name, uint32_t *a)
{
	if (!strcmp(name, "kill") || !strcmp(name, "tkill") || !strcmp(name, "prlimit64")) {
		tame_pid(&a[0]);
	} else if (!strcmp(name, "tgkill")) {
		tame_pid(&a[0]);
		tame_pid(&a[1]);
	} else if (!strcmp(name, "nanosleep") && rnd_below(256) != 0) {
		if (in_scratch(a[0]))
			((uint32_t *)a[0])[0] = 0;              /* tv_sec */
	} else if (!strcmp(name, "clock_nanosleep") && rnd_below(256) != 0) {
		if (in_scratch(a[2]))
			((uint32_t *)a[2])[0] = 0;              /* tv_sec */
	} else if ((!strcmp(name, "read") || !strcmp(name, "readv") || !strcmp(name, "pread64") ||
		    !strcmp(name, "ioctl")) && (a[0] == 1 || a[0] == 2)) {
		/*
		 * fds 1 and 2 are the console, open for reading too: a read would
		 * wait for a person, and a random TCSETS could make every later
		 * line of the run unreadable (OLCUC, no ONLCR). fd 0 is /dev/null.
		 */
		a[0] = 0;
	} else if ((!strcmp(name, "fcntl") || !strcmp(name, "fcntl64")) && (a[0] == 1 || a[0] == 2)) {
		/*
		 * fds 1 and 2 are one open file, shared by every child and the
		 * parent: O_NONBLOCK set on it would make every later write of the
		 * run -EAGAIN whenever another writer holds the console (Linux's
		 * tty_write does the same), the write probe's answer included, and
		 * the parent's reports would be lost. fd 0 is /dev/null.
		 */
		a[0] = 0;
	} else if ((!strcmp(name, "close") || !strcmp(name, "dup2") || !strcmp(name, "dup3")) &&
		   a[!strcmp(name, "close") ? 0 : 1] <= 2) {
		/* fds 0-2 stay as they are: the probes and the reports write to fd 1. */
		a[!strcmp(name, "close") ? 0 : 1] = 99;
	} else if (!strcmp(name, "madvise") && madvise_hits_self(a[0], a[1]) && a[2] != MADV_WILLNEED) {
		/*
		 * MADV_DONTNEED (or FREE, REMOVE) over our own data would put it back as the file
		 * or zero-fill has it, as on Linux: fuzz_in itself, the plan and the generator's
		 * state would be wiped, and the register check would report the kernel for it.
		 * WILLNEED walks the same range and keeps every byte.
		 */
		a[2] = MADV_WILLNEED;
	} else if (!strcmp(name, "write") && (a[0] == 1 || a[0] == 2)) {
		if (in_scratch(a[1]))
			a[2] %= 64;
		memset(scratch, 0, sizeof(scratch));    /* NUL bytes print nothing */
	}
}

/* ---- probes: calls whose answer is certain ------------------------------------ */

struct probe {
	const char *name;
	int nr;
	uint32_t args[6];
	int bad_arg;            /* this argument gets a bad pointer; the answer must be -EFAULT */
};

static const struct probe probes[] = {
	{ "write", __NR_write, { 1, 0, 16 }, 1 },
	{ "nanosleep", __NR_nanosleep, { 0, 0 }, 0 },
	{ "clock_gettime", __NR_clock_gettime, { CLOCK_MONOTONIC, 0 }, 1 },
	{ "sched_getaffinity", __NR_sched_getaffinity, { 0, 4, 0 }, 2 },
	{ "sched_setaffinity", __NR_sched_setaffinity, { 0, 4, 0 }, 2 },
	{ "execve", __NR_execve, { 0, 0, 0 }, 0 },
	{ "sysinfo", __NR_sysinfo, { 0 }, 0 },
};
/*
 * Certainly bad for any length: page 0 (never mapped: mmap refuses it, as
 * Linux's mmap_min_addr does), or kernel memory. Not 0x40000000, though it
 * is one of random_arg()'s values: a child's own mmap() may have been given
 * that address as its hint, and then a probe writing there succeeds, on
 * Linux as here (sched_getaffinity answered 4 in a 10-minute run).
 */
static const uint32_t certainly_bad[] = { 0, 0xC0000000, 0xC0100000, 0xFFFFFFF0 };

static bool known_number(uint32_t nr)
{
	for (int i = 0; i < NCALLS; i++)
		if ((uint32_t)all_calls[i].nr == nr)
			return true;
	return false;
}

/* ---- threads: a storm of clone, futex and unmapping ----------------------------- */

#define STORM_STACK   16384
#define STORM_STEPS   20                /* calls or touches by each side (a futex sleep costs a tick or two) */
#define STORM_JOIN_MS 3000              /* the thread has this long to end, or we leave it be */
#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
		      CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

/* What both sides of a storm work on. The region's words hold 0..3, so a random value often matches. */
struct storm {
	uint32_t *region;               /* pages the creator may unmap at any moment */
	uint32_t len;                   /* in bytes */
	uint32_t seed;                  /* the thread's own random stream */
	volatile int tid;               /* PARENT_SETTID, cleared at exit (CHILD_CLEARTID) */
};
static struct storm storm;
static bool storm_verbose;              /* a replay: say what each storm does */
static bool storms = true;              /* fuzz_threads=0: none, to tell a thread finding from another */

static long long now_ns(void);

/*
 * clone(flags, stack, ptid, tls, ctid), then, in the new task, fn(arg) on the
 * new stack and exit(fn's value): a thread ends alone. The parent gets the
 * new task's id or -errno. (user/tests/threadtest.c has the same.)
 */
long fuzz_clone(uint32_t flags, void *stack_top, volatile int *ptid, void *tls, volatile int *ctid,
		int (*fn)(void *), void *arg);
__asm__(".text\n.globl fuzz_clone\n"
	"fuzz_clone: pushl %ebp\n pushl %ebx\n pushl %esi\n pushl %edi\n"
	" movl 24(%esp), %ecx\n subl $8, %ecx\n"
	" movl 44(%esp), %eax\n movl %eax, 4(%ecx)\n"
	" movl 40(%esp), %eax\n movl %eax, 0(%ecx)\n"
	" movl 20(%esp), %ebx\n movl 28(%esp), %edx\n movl 32(%esp), %esi\n movl 36(%esp), %edi\n"
	" movl $120, %eax\n int $0x80\n"
	" testl %eax, %eax\n jnz 1f\n"
	" xorl %ebp, %ebp\n popl %eax\n call *%eax\n"
	" movl %eax, %ebx\n movl $1, %eax\n int $0x80\n hlt\n"
	"1: popl %edi\n popl %esi\n popl %ebx\n popl %ebp\n ret\n");

/* A random stream of its own: the thread and its creator run at once. */
static uint32_t rnd_in(uint32_t *state, uint32_t n)
{
	*state += 0x9E3779B9;
	return mix32(*state) % n;
}

/* A futex word: in the region (mapped or not), in scratch, misaligned, or no memory of ours. */
static uint32_t futex_address(uint32_t *r)
{
	switch (rnd_in(r, 6)) {
	case 0: case 1: case 2:
		return (uint32_t)storm.region + 4 * rnd_in(r, storm.len / 4);
	case 3:
		return (uint32_t)scratch + 4 * rnd_in(r, 64);
	case 4:
		return (uint32_t)storm.region + 1 + rnd_in(r, 3);       /* misaligned: -EINVAL */
	default:
		return bad_pointers[rnd_in(r, sizeof(bad_pointers) / sizeof(bad_pointers[0]))];
	}
}

/*
 * One futex call with a random operation and flags. Every call that may
 * sleep gets a timeout of a few milliseconds (relative for FUTEX_WAIT,
 * absolute for the bitset and PI ones), now and then a bad one instead.
 */
static void random_futex(uint32_t *r)
{
	uint32_t op = rnd_in(r, 14), uaddr = futex_address(r), uaddr2 = futex_address(r);
	uint32_t val = rnd_in(r, 4), val3, timeout;
	struct timespec ts;

	if (rnd_in(r, 2))
		op |= FUTEX_PRIVATE_FLAG;
	if (rnd_in(r, 8) == 0)
		op |= FUTEX_CLOCK_REALTIME;
	val3 = rnd_in(r, 2) ? FUTEX_BITSET_MATCH_ANY : rnd_in(r, 4) ? rnd_in(r, 16) : mix32(*r);
	if ((op & FUTEX_CMD_MASK) == FUTEX_WAKE_OP)
		val3 = FUTEX_OP(rnd_in(r, 6), rnd_in(r, 4), rnd_in(r, 7), rnd_in(r, 4));
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_REQUEUE: case FUTEX_CMP_REQUEUE: case FUTEX_WAKE_OP: case FUTEX_CMP_REQUEUE_PI:
		timeout = rnd_in(r, 4);                 /* not a time: val2, how many to requeue */
		break;
	case FUTEX_WAIT:
		ts = (struct timespec){ 0, 1000000 + (long)rnd_in(r, 4000000) };
		timeout = (uint32_t)&ts;
		break;
	default:
		clock_gettime((op & FUTEX_CLOCK_REALTIME) ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 1000000 + (long)rnd_in(r, 4000000);
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		timeout = (uint32_t)&ts;
	}
	if (rnd_in(r, 16) == 0)
		timeout = certainly_bad[rnd_in(r, sizeof(certainly_bad) / sizeof(certainly_bad[0]))];
	else if (rnd_in(r, 16) == 0 && timeout == (uint32_t)&ts)
		ts.tv_nsec = 1000000000;                /* not a time: -EINVAL */
	syscall(__NR_futex, uaddr, op, val, timeout, uaddr2, val3);
}

/* Touch the region from user mode, or make the kernel touch it (copy_to_user into it). */
static void touch_region(uint32_t *r)
{
	uint32_t i = rnd_in(r, storm.len / 4);
	volatile uint32_t *w = &storm.region[i];

	switch (rnd_in(r, 4)) {
	case 0:
		*w = rnd_in(r, 4);
		break;
	case 1:
		(void)*w;
		break;
	case 2:
		syscall(__NR_clock_gettime, CLOCK_MONOTONIC, w);
		storm.region[i] &= 3;   /* if it is still there */
		break;
	default:
		syscall(__NR_sched_getaffinity, 0, 4, w);
		break;
	}
}

/* The new task: futex calls and touches of the region, then exit (this task only). */
static int storm_body(void *arg)
{
	uint32_t r = storm.seed;

	(void)arg;
	for (int i = 0; i < STORM_STEPS; i++) {
		if (rnd_in(&r, 2))
			random_futex(&r);
		else
			touch_region(&r);
	}
	return 0;
}

/*
 * A fault in the region, after the creator unmapped or protected it: if a
 * storm thread took it, that thread exits alone; the child's own thread has
 * nothing to fault on there, and ends its process as the default would.
 */
static void storm_fault(int sig)
{
	if (syscall(__NR_gettid, 0) != self_pid)
		syscall(__NR_exit, 0);
	syscall(__NR_exit_group, 128 + sig);
}

void storm_restorer(void);       /* never reached: storm_fault does not return */
__asm__(".text\nstorm_restorer: movl $173, %eax\n int $0x80\n");      /* rt_sigreturn */

/* Random clone flags: mostly a thread's, sometimes a process sharing our memory, now and then nonsense. */
static uint32_t storm_flags(uint32_t *r)
{
	static const uint32_t extra[] = {
		CLONE_SETTLS, CLONE_CHILD_SETTID, CLONE_PARENT, CLONE_DETACHED, CLONE_VFORK,
		CLONE_UNTRACED, CLONE_PTRACE, CLONE_CHILD_CLEARTID, CLONE_PARENT_SETTID,
	};
	uint32_t f;

	switch (rnd_in(r, 8)) {
	case 0:         /* a process that shares our memory, as vfork's child: it exits, we go on */
		f = CLONE_VM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | (rnd_in(r, 2) ? SIGCHLD : 0);
		break;
	case 1:         /* any of the low flags: Linux refuses many mixes (-EINVAL) */
		f = (mix32(*r) & 0x00ffff00) | rnd_in(r, 65);
		f |= CLONE_VM;  /* on our stack otherwise: the copy would return into storm code */
		break;
	default:
		f = THREAD_FLAGS;
	}
	for (int i = rnd_in(r, 3); i > 0; i--)
		f |= extra[rnd_in(r, sizeof(extra) / sizeof(extra[0]))];
	f &= ~(uint32_t)0x00020000;     /* CLONE_NEWNS: namespaces are not this fuzzer's business */
	return f;
}

/*
 * One storm: map a region and a fresh stack, clone with random flags, and
 * while the new task works on the region, make futex calls of our own and,
 * at a random moment, unmap, protect or replace the region. Then wait (a
 * while) for the task's CLEARTID word, and give back what is left.
 */
static void thread_storm(uint32_t seed)
{
	uint32_t r = seed, flags, tls_desc[4] = { 0xffffffff, 0, 0xfffff, 0x51 };
	int pages = 1 + rnd_in(&r, 4), change_at = rnd_in(&r, STORM_STEPS);
	uint8_t *stack;
	long tid;
	bool gone = false;
	volatile int *ptid, *ctid;
	void *tls;
	struct k_sigaction sa = { (uint32_t)storm_fault, SA_RESTORER | SA_NODEFER, (uint32_t)storm_restorer, 0 };

	syscall(__NR_rt_sigaction, SIGSEGV, &sa, 0, sizeof(k_sigset_t));
	syscall(__NR_rt_sigaction, SIGBUS, &sa, 0, sizeof(k_sigset_t));
	storm.len = pages * 4096;
	storm.region = (uint32_t *)syscall(__NR_mmap2, 0, storm.len, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack = (uint8_t *)syscall(__NR_mmap2, 0, STORM_STACK, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((uint32_t)storm.region >= 0xfffff000u || (uint32_t)stack >= 0xfffff000u)
		return;                 /* a random munmap or rlimit may have left no room: fine */
	storm.seed = mix32(seed ^ 0x7EAD);
	storm.tid = -1;
	flags = storm_flags(&r);
	if (storm_verbose)
		printf("fuzz:   storm: flags %x, %d pages at %p, stack %p\n", flags, pages, (void *)storm.region,
		       (void *)stack);
	/* CLONE_SETTLS: a user_desc asking for a free entry, or one the kernel must refuse. */
	ptid = rnd_in(&r, 8) ? &storm.tid : (volatile int *)certainly_bad[1];
	tls = rnd_in(&r, 2) ? (void *)tls_desc : (void *)(uintptr_t)random_arg();
	ctid = rnd_in(&r, 8) ? &storm.tid : (volatile int *)(storm.region + rnd_in(&r, storm.len / 4));
	tid = fuzz_clone(flags, stack + STORM_STACK, ptid, tls, ctid, storm_body, NULL);
	if (storm_verbose)
		printf("fuzz:   storm: clone(flags %x) = %ld, %d pages at %p, change at step %d\n", flags, tid,
		       pages, (void *)storm.region, change_at);
	for (int i = 0; i < STORM_STEPS; i++) {
		if (i == change_at && tid > 0) {
			switch (rnd_in(&r, 4)) {
			case 0:
				syscall(__NR_munmap, storm.region, storm.len);
				gone = true;
				break;
			case 1:
				syscall(__NR_mprotect, storm.region, storm.len, rnd_in(&r, 2) ? PROT_NONE : PROT_READ);
				gone = true;
				break;
			case 2:         /* new, zeroed pages at the same address */
				syscall(__NR_mmap2, storm.region, storm.len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
				break;
			default:        /* the first page only */
				syscall(__NR_munmap, storm.region, 4096);
				gone = true;
			}
		}
		if (rnd_in(&r, 2))
			random_futex(&r);
		else if (!gone)
			touch_region(&r);
	}
	/*
	 * The thread's CLEARTID word goes to 0 when it has exited (and is woken).
	 * Only when that word is storm.tid: a CLEARTID word in the region (which
	 * we may have unmapped) is cleared there, or nowhere, and storm.tid would
	 * never change; waiting STORM_JOIN_MS for it would be the fuzzer's time
	 * lost, not a finding (issue 31: throughput with storms under bkl=syscalls).
	 */
	if (tid > 0 && (flags & CLONE_CHILD_CLEARTID) && ctid == &storm.tid) {
		long long end = now_ns() + STORM_JOIN_MS * 1000000LL;

		while (storm.tid != 0 && now_ns() < end) {
			struct timespec ts = { 0, 10000000 };
			int seen = storm.tid;

			if (seen != 0)
				syscall(__NR_futex, &storm.tid, FUTEX_WAIT, seen, &ts, 0, 0);
		}
	}
	if (storm_verbose)
		printf("fuzz:   storm: done, the new task %s\n", storm.tid == 0 ? "is gone" : "may still run");
	syscall(__NR_munmap, storm.region, storm.len);
	/* The stack is given back only when its thread is surely gone; else it stays, a few KiB. */
	if (tid <= 0 || storm.tid == 0)
		syscall(__NR_munmap, stack, STORM_STACK);
}

/* ---- one child ---------------------------------------------------------------- */

enum kind { RANDOM_CALL, UNKNOWN_NUMBER, PROBE, BIG_WRITE_CALL, THREAD_STORM };

struct planned {
	enum kind kind;
	const char *name;
	uint32_t nr, args[6];
	bool df;
	bool sysenter;          /* by __kernel_vsyscall (sysenter), not int $0x80 */
	long expect;            /* for UNKNOWN_NUMBER and PROBE */
};

static void plan_call(struct planned *p)
{
	uint32_t choice = rnd_below(100);

	p->df = rnd_below(4) == 0;
	for (int i = 0; i < 6; i++)
		p->args[i] = random_arg();
	if (choice < 4) {
		/*
		 * A big write into the pipe (up to 64 KiB) or to the console (up
		 * to 16 KiB, one call in 100: every child and the parent share
		 * the serial line, and the run must still get its work done).
		 */
		bool to_pipe = pipe_out >= 0 && choice > 0;

		p->kind = BIG_WRITE_CALL;
		p->name = "write";
		p->nr = __NR_write;
		p->args[0] = to_pipe ? (uint32_t)pipe_out : 1;
		p->args[1] = (uint32_t)big_buffer;
		p->args[2] = 1 + rnd_below(to_pipe ? BIG_WRITE : BIG_WRITE / 4);
	} else if (choice < 7 && storms) {
		p->kind = THREAD_STORM;
		p->name = "(thread storm)";
		p->nr = rnd();          /* the storm's own seed */
	} else if (choice < 80) {
		const struct call *c;

		do {
			c = &all_calls[rnd_below(NCALLS)];
		} while (denied(c->name));
		p->kind = RANDOM_CALL;
		p->name = c->name;
		p->nr = c->nr;
		fill_scratch();
		tame(c->name, p->args);
	} else if (choice < 90) {
		do {
			p->nr = rnd_below(2) ? rnd_below(1024) : rnd();
		} while (known_number(p->nr));
		p->kind = UNKNOWN_NUMBER;
		p->name = "(unknown)";
		p->expect = -ENOSYS;
	} else {
		const struct probe *pr = &probes[rnd_below(sizeof(probes) / sizeof(probes[0]))];

		p->kind = PROBE;
		p->name = pr->name;
		p->nr = pr->nr;
		memcpy(p->args, pr->args, sizeof(p->args));
		p->args[pr->bad_arg] = certainly_bad[rnd_below(sizeof(certainly_bad) / sizeof(certainly_bad[0]))];
		p->expect = -EFAULT;
	}
	/*
	 * Half the calls enter by sysenter, where the kernel offers it, and must
	 * give the same answers and keep the same registers. Not a call that may
	 * start a child on a stack of its own: by sysenter it returns through
	 * the vsyscall page, which pops from that stack (as on Linux).
	 */
	p->sysenter = __vsyscall && !(p->kind == RANDOM_CALL && LISTED(p->name, new_child_exits)) && rnd_below(2);
}

static void describe(char *buf, size_t n, const struct planned *p)
{
	snprintf(buf, n, "%s(nr %d; %x, %x, %x, %x, %x, %x)%s%s", p->name, (int)p->nr, p->args[0],
		 p->args[1], p->args[2], p->args[3], p->args[4], p->args[5], p->df ? " with DF set" : "",
		 p->sysenter ? " by sysenter" : "");
}

/* Every register but eax must come back as it went in; so must DF and esp. */
static const char *clobbered(const struct planned *p, uint32_t *was, uint32_t *now)
{
	static const char *const names[] = { "ebx", "ecx", "edx", "esi", "edi", "ebp" };
	const uint32_t *in = &fuzz_in.ebx, *out = &fuzz_out.ebx;

	for (int i = 0; i < 6; i++) {
		if (in[i] != out[i]) {
			*was = in[i];
			*now = out[i];
			return names[i];
		}
	}
	if (fuzz_out.esp != fuzz_saved_esp) {
		*was = fuzz_saved_esp;
		*now = fuzz_out.esp;
		return "esp";
	}
	if (!!(fuzz_out.eflags & EFLAGS_DF) != p->df) {
		*was = p->df;
		*now = !p->df;
		return "DF";
	}
	return NULL;
}

static void __attribute__((noreturn)) sys_exit_now(int code)
{
	syscall(__NR_exit_group, code);
	for (;;)
		;
}

/* Make call i of the child with this seed; exits the child on a finding. */
static void make_call(uint32_t seed, int i, const struct planned *p, bool verbose)
{
	char what[160];
	const char *reg;
	uint32_t was, now;
	int me;

	if (verbose) {
		describe(what, sizeof(what), p);
		printf("fuzz: [child %u] #%d %s\n", seed, i, what);
	}
	if (p->kind == THREAD_STORM) {
		storm_verbose = verbose;
		thread_storm(p->nr);
		return;
	}
	fuzz_in.eax = p->nr;
	memcpy(&fuzz_in.ebx, p->args, sizeof(p->args));
	fuzz_in.eflags = p->df ? EFLAGS_DF : 0;
	fuzz_child_exits = p->kind == RANDOM_CALL && LISTED(p->name, new_child_exits);
	fuzz_entry = p->sysenter ? (uint32_t)__vsyscall : 0;
	me = self_pid;
	fuzz_raw_call();
	reg = clobbered(p, &was, &now);
	if (reg) {
		describe(what, sizeof(what), p);
		printf("fuzz: REGISTER MISMATCH child %u call #%d %s: %s was %x, now %x%s (replay: fuzz_child=%u)\n",
		       seed, i, what, reg, was, now, getpid() != me ? " in fork's child" : "", seed);
		sys_exit_now(EXIT_MISMATCH);
	}
	if (p->kind == RANDOM_CALL && p->nr == __NR_fork && fuzz_out.eax == 0)
		sys_exit_now(0);        /* fork's child: its registers were right; it is done */
	if ((p->kind == PROBE || p->kind == UNKNOWN_NUMBER) && (long)fuzz_out.eax != p->expect) {
		describe(what, sizeof(what), p);
		printf("fuzz: WRONG ANSWER child %u call #%d %s: %d, expected %ld (replay: fuzz_child=%u)\n",
		       seed, i, what, (int)fuzz_out.eax, p->expect, seed);
		sys_exit_now(EXIT_WRONG);
	}
}

/* The planted hang of fuzz_selftest=1: one sleep of 1000 s, which the watchdog must end. */
static void plan_hang(struct planned *p)
{
	uint32_t *ts = (uint32_t *)scratch;

	ts[0] = 1000;
	ts[1] = 0;
	*p = (struct planned){ RANDOM_CALL, "nanosleep", __NR_nanosleep, { (uint32_t)ts }, false, false, 0 };
}

/*
 * A child reads from /dev/null, not the console: a read of fd 0 would wait
 * for a person to type, and every child that drew one would count as hung.
 */
static void quiet_stdin(void)
{
	int fd = (int)syscall(__NR_open, "/dev/null", O_RDONLY, 0);

	if (fd > 0) {
		syscall(__NR_dup2, fd, 0);
		syscall(__NR_close, fd);
	}
}

/*
 * Half the children get a pipe whose other end a grandchild reads, slowly
 * (4 KiB, then a pause), so big writes into it fill it and sleep. The
 * reader ends when the writer is gone (EOF), or with it when it is killed
 * (it is in the same process group only if fuzzed calls put it there, so
 * EOF is the way).
 */
static void start_slow_reader(void)
{
	int fds[2], pid;
	static char sink[4096];

	if (rnd_below(2) || syscall(__NR_pipe, fds) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		syscall(__NR_close, fds[1]);
		while (read(fds[0], sink, sizeof(sink)) > 0)
			msleep(1);
		sys_exit_now(0);
	}
	syscall(__NR_close, fds[0]);
	if (pid < 0) {
		syscall(__NR_close, fds[1]);
		return;
	}
	pipe_out = fds[1];
}

static void __attribute__((noreturn)) run_child(uint32_t seed, bool verbose)
{
	struct planned p;

	self_pid = getpid();
	rng_state = seed;
	quiet_stdin();
	start_slow_reader();
	if (seed == PLANTED_SEED) {
		plan_hang(&p);
		make_call(seed, 0, &p, verbose);
		sys_exit_now(0);
	}
	for (int i = 0; i < CALLS_PER_CHILD; i++) {
		plan_call(&p);
		make_call(seed, i, &p, verbose);
	}
	sys_exit_now(0);
}

/* ---- the parent ------------------------------------------------------------------ */

struct slot {
	int pid;                /* 0: free */
	uint32_t seed;
	long long started;      /* when it started, or when it was killed */
	long long killed_ticks[TICK_CPUS];      /* every CPU's tick count when it was killed */
	int killed_ncpu;        /* how many of them could be read (0: none) */
	bool replay;
	bool killed;
};

static struct {
	unsigned children, calls, hangs, crashes, mismatches, wrong, undying, kills;
} stats;
static long long hang_ns = HANG_MS * 1000000LL;
static long long run_end;               /* when the run's time is up */
#define GRACE_NS 2000000000LL           /* then children still running get this long, no more */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int start_child(struct slot *s, uint32_t seed, bool replay)
{
	int pid = fork();

	if (pid == 0)
		run_child(seed, replay);
	if (pid < 0)
		return pid;
	*s = (struct slot){ .pid = pid, .seed = seed, .started = now_ns(), .replay = replay };
	stats.children++;
	return 0;
}

/* A child (or an orphaned child of a child: we may be init) ended with status st. */
static void account(struct slot *s, int st)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_MISMATCH)
		stats.mismatches++;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_WRONG)
		stats.wrong++;
	if (!s)
		return;
	if (!s->killed) {
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			stats.calls += CALLS_PER_CHILD;         /* calls made by children that finished */
		if (WIFSIGNALED(st)) {
			/* It may have signalled itself (kill is in the pool): worth a look, not a failure. */
			stats.crashes++;
			printf("fuzz: child %u died of signal %d (replay: fuzz_child=%u)\n", s->seed,
			       WTERMSIG(st), s->seed);
		}
	}
	s->pid = 0;
}

static struct slot *slot_of(struct slot *slots, int nslots, int pid)
{
	for (int i = 0; i < nslots; i++)
		if (slots[i].pid == pid)
			return &slots[i];
	return NULL;
}

/* Collect whatever has ended (without blocking). */
static void reap_some(struct slot *slots, int nslots)
{
	int pid, st;

	while ((pid = wait4(-1, &st, WNOHANG, 0)) > 0) {
		struct slot *s = slot_of(slots, nslots, pid);
		bool was_hung = s && s->killed && !s->replay && now_ns() < run_end;
		uint32_t seed = s ? s->seed : 0;

		account(s, st);
		/* Replay a hung child once, loudly: its last line names the call that hangs. */
		if (was_hung) {
			printf("fuzz: replaying child %u, printing each call\n", seed);
			start_child(s, seed, true);
		}
	}
}

/*
 * Every CPU's timer ticks (the LOC line of /proc/interrupts, one count per
 * CPU): how many it read, 0 if none. A kill may need any CPU (the victim's,
 * a lock holder's), and a vCPU the host machine did not run gets no ticks,
 * so "a second of ticks on every CPU" is a second the kernel really had.
 */
static int read_ticks(long long ticks[TICK_CPUS])
{
	static char text[2048];
	int fd = (int)syscall(__NR_open, "/proc/interrupts", O_RDONLY, 0), n, got = 0, ncpu = 0;
	char *p;

	if (fd < 0)
		return 0;
	while (got < (int)sizeof(text) - 1 && (n = read(fd, text + got, sizeof(text) - 1 - got)) > 0)
		got += n;
	syscall(__NR_close, fd);
	text[got] = 0;
	for (p = text; *p; p++)
		if ((p == text || p[-1] == '\n') && !strncmp(p, "LOC:", 4))
			break;
	if (!*p)
		return 0;
	for (p += 4; *p && *p != '\n' && ncpu < TICK_CPUS; ncpu++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		for (ticks[ncpu] = 0; *p >= '0' && *p <= '9'; p++)
			ticks[ncpu] = ticks[ncpu] * 10 + (*p - '0');
	}
	return ncpu;
}

/*
 * A child that will not die: say what the kernel says of it (/proc/PID/status's
 * State and switches, /proc/PID/sched's wait figures), for whoever reads the log.
 */
static void show_undying(int pid)
{
	static const char *const files[] = { "status", "sched" };
	static char text[2048];

	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[48];
		int fd, n, got = 0;

		snprintf(path, sizeof(path), "/proc/%d/%s", pid, files[i]);
		if ((fd = (int)syscall(__NR_open, path, O_RDONLY, 0)) < 0)
			continue;
		while (got < (int)sizeof(text) - 1 && (n = read(fd, text + got, sizeof(text) - 1 - got)) > 0)
			got += n;
		syscall(__NR_close, fd);
		text[got] = 0;
		for (char *line = text, *end; *line; line = end) {
			end = line + strcspn(line, "\n");
			if (*end)
				*end++ = 0;
			if (!strncmp(line, "State", 5) || strstr(line, "ctxt_switches") || strstr(line, "wait"))
				printf("fuzz:   pid %d %s: %s\n", pid, files[i], line);
		}
	}
}

static void kill_slot(struct slot *s, long long t)
{
	kill(s->pid, SIGKILL);
	s->killed = true;
	s->started = t;
	s->killed_ncpu = read_ticks(s->killed_ticks);
}

/* Gone too slowly after SIGKILL: a second of ticks on every CPU (or 30 s, if they cannot be read). */
static bool too_slow_to_die(const struct slot *s, long long t)
{
	long long now[TICK_CPUS];
	int n = s->killed_ncpu ? read_ticks(now) : 0;

	if (n != s->killed_ncpu || n == 0)
		return t - s->started > DIE_NS;
	for (int i = 0; i < n; i++)
		if (now[i] - s->killed_ticks[i] <= DIE_TICKS)
			return false;           /* some CPU has not had its second yet */
	return true;
}

/*
 * Every KILL_EVERY_NS, kill a running child picked at random, as a user
 * would: it must die at once, whatever it is doing. By the clock, not by
 * the number of polls, so a slow run (every call under the BKL, a busy
 * host) still kills some.
 */
static void kill_one_at_random(struct slot *slots, int nslots)
{
	static long long next_kill;
	long long t = now_ns();
	struct slot *s;

	if (!next_kill)
		next_kill = t + KILL_EVERY_NS;
	if (t < next_kill)
		return;
	next_kill = t + KILL_EVERY_NS;
	for (int tries = 0; tries < nslots; tries++) {
		s = &slots[rnd_below(nslots)];
		if (s->pid && !s->killed && !s->replay && s->seed != PLANTED_SEED) {
			stats.kills++;
			kill_slot(s, t);
			return;
		}
	}
}

/*
 * Is killed child s still there, now? Collect what has ended first: this
 * loop's own printf()s may have waited a long time for the console (behind
 * children's big writes), long enough for s to die meanwhile and look slow
 * when it was only not yet collected. A slot reaped here may be reused at
 * once, for a replay: then s is no longer the child that was killed.
 */
static bool still_there(struct slot *slots, int nslots, const struct slot *s)
{
	int pid = s->pid;

	reap_some(slots, nslots);
	return s->pid == pid && s->killed && too_slow_to_die(s, now_ns());
}

/* Kill a child that runs too long; report one that will not die. */
static void watch(struct slot *slots, int nslots)
{
	long long t = now_ns();

	for (int i = 0; i < nslots; i++) {
		struct slot *s = &slots[i];

		if (!s->pid)
			continue;
		if (!s->killed && t > run_end + GRACE_NS) {
			/* Time is up: stop it, without calling it hung (a replay may be running long). */
			kill_slot(s, t);
		} else if (!s->killed && t - s->started > hang_ns) {
			stats.hangs++;
			printf("fuzz: child %u (pid %d) hung; killing it (replay: fuzz_child=%u)\n", s->seed,
			       s->pid, s->seed);
			kill_slot(s, t);
		} else if (s->killed && too_slow_to_die(s, t) && still_there(slots, nslots, s)) {
			stats.undying++;
			printf("fuzz: BUG? child %u (pid %d) did not die within a second of SIGKILL "
			       "(replay: fuzz_child=%u)\n", s->seed, s->pid, s->seed);
			show_undying(s->pid);
			s->pid = 0;     /* give up on it */
		}
	}
}

static bool any_running(struct slot *slots, int nslots)
{
	for (int i = 0; i < nslots; i++)
		if (slots[i].pid)
			return true;
	return false;
}

static int online_cpus(void)
{
	uint32_t mask = 0;
	int n = 0;

	sched_getaffinity(0, sizeof(mask), &mask);
	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* "name=value" in argv or envp: the number, or dflt. */
static uint32_t option(char **argv, char **envp, const char *name, uint32_t dflt)
{
	size_t n = strlen(name);
	char **lists[2] = { argv, envp };

	for (int l = 0; l < 2; l++)
		for (char **p = lists[l]; p && *p; p++)
			if (!strncmp(*p, name, n) && (*p)[n] == '=')
				return (uint32_t)atoi(*p + n + 1);
	return dflt;
}

int main(int argc, char **argv, char **envp)
{
	uint32_t seed = option(argv, envp, "fuzz_seed", 0);
	uint32_t child_seed = option(argv, envp, "fuzz_child", 0);
	uint32_t seconds = option(argv, envp, "fuzz_seconds", 10);
	bool selftest = option(argv, envp, "fuzz_selftest", 0);
	int nslots = 3 * online_cpus() + 3, next = 0;
	struct slot slots[MAX_SLOTS] = { { 0 } };
	long long end;

	parent_pid = getpid();
	hang_ns = option(argv, envp, "fuzz_hang_ms", HANG_MS) * 1000000LL;
	storms = option(argv, envp, "fuzz_threads", 1) != 0;
	image_end = (uint32_t)brk(0);
	if (seed == 0)
		seed = (uint32_t)now_ns() | 1;  /* none given: a new one, printed for replay */
	rng_state = seed ^ 0x5EED;              /* the parent's own stream: which child to kill */
	if (nslots > MAX_SLOTS)
		nslots = MAX_SLOTS;
	printf("fuzz: %d calls in the pool, %d children at a time, %u s, seed %u (replay: fuzz_seed=%u)\n",
	       NCALLS, child_seed ? 1 : nslots, seconds, seed, seed);
	if (child_seed) {
		/* Replay one child, printing each call. */
		nslots = 1;
		start_child(&slots[0], child_seed, true);
		seconds = 0;
	} else if (selftest) {
		/* Check the watchdog first: a child that hangs for sure must be killed and replayed. */
		printf("fuzz: self-test: child %u hangs on purpose\n", PLANTED_SEED);
		start_child(&slots[0], PLANTED_SEED, false);
		planted_pid = slots[0].pid;     /* the children forked from now on know it */
	}
	end = run_end = now_ns() + (long long)seconds * 1000000000;
	if (child_seed)
		run_end += hang_ns;     /* the replayed child may run until it counts as hung */
	for (;;) {
		bool more = now_ns() < end;

		for (int i = 0; more && i < nslots; i++) {
			uint32_t cs = mix32(seed * 0x9E3779B9u + (uint32_t)next++);

			if (!slots[i].pid)
				start_child(&slots[i], cs == PLANTED_SEED ? cs + 1 : cs, false);
			else
				next--;
		}
		reap_some(slots, nslots);
		if (more && !child_seed)
			kill_one_at_random(slots, nslots);
		watch(slots, nslots);
		if (!more && !any_running(slots, nslots))
			break;
		msleep(POLL_MS);
	}
	/* Orphans of children (fork is in the pool) come to us if we are init: collect them too. */
	msleep(50);
	reap_some(slots, nslots);
	printf("fuzz: summary calls=%u children=%u hangs=%u crashes=%u mismatches=%u wrong=%u undying=%u "
	       "kills=%u\n", stats.calls, stats.children, stats.hangs, stats.crashes, stats.mismatches,
	       stats.wrong, stats.undying, stats.kills);
	return stats.mismatches || stats.wrong || stats.undying ? 1 : 0;
}
