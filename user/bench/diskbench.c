/*
 * sysbench's disk mode: `sysbench disk [OPTIONS] [DEVICE...]`, or, as init,
 * the boot word sysbench_disk=OPTIONS,DEVICE,... (commas for spaces). The
 * same static binary as the rest of sysbench, so the same bytes run on
 * smpix (make bench) and on Linux (make bench-linux), on the same images.
 *
 *   -M DEV -D DIR  mount DEV (ext2) on DIR first, and time a file there:
 *   -s SIZE        file_write_mbs: write DIR/sysbench.dat, SIZE (64 MiB) in
 *                  64 KiB write()s, then fsync() and close(); file_read_mbs:
 *                  read it all back after an unmount and a mount again, so
 *                  that no block of it is in a cache (umount drops them on
 *                  both kernels), its contents checked.
 *   -S SIZE        raw_write_mbs_dK and raw_read_mbs_dK: K processes (K = 1
 *                  .. the devices named), process i pinned to CPU i and
 *                  writing, then reading, SIZE (16 MiB) from the start of the
 *                  i-th DEVICE (a whole disk or a partition: its data is
 *                  overwritten). The figure is all of them together, bytes
 *                  over wall time. Each process first asks BLKFLSBUF, which
 *                  writes back and forgets the device's cached blocks on both
 *                  kernels: the reads are of blocks in no cache, the writes
 *                  are timed to the end of their fsync().
 *   -r N           rounds (3), the device counts taking turns within each
 *                  (1..K, then K..1) as sysbench's FIONREAD does.
 *   -k FILE        load a kernel module first (Linux: the disk driver of a
 *                  kernel whose ATA and SCSI disk support are modules;
 *                  finit_module). Repeatable, in order.
 *   -w MS          wait up to MS ms for each device to open (Linux probes
 *                  disks after the module is loaded, asynchronously).
 *
 * A SIZE is in MiB, or in KiB with a k after it (256k), a multiple of 64 KiB.
 * MB/s is 10^6 bytes per second. Output lines as the rest of sysbench:
 * "sysbench: NAME round=R ops=BYTES value=MB/s".
 */
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/fs.h"
#include "kernel/uapi/unistd.h"
#include "user/bench/bench.h"

#define CHUNK (64 * 1024)               /* bytes per read() or write() */
#define MAX_DEVS 4                      /* IDE has four units */
#define MAX_MODULES 32                  /* bench_linux.py loads 17 on Debian 12 */
#define STAMP 0x4B534944u               /* "DISK": the first word of every chunk written */

#ifndef __NR_finit_module
#define __NR_finit_module 350           /* i386 Linux; smpix has none and no -k is given there */
#endif
#ifndef __NR_nanosleep
#define __NR_nanosleep 162
#endif

struct disk_opts {
	unsigned file_kib, raw_kib, rounds, wait_ms;
	const char *mount_dev, *mount_dir;
	const char *devs[MAX_DEVS];
	unsigned ndevs;
	const char *modules[MAX_MODULES];
	unsigned nmodules;
};

static unsigned chunk_words[CHUNK / 4];  /* each process its own copy after fork(); words: aligned */
static char *const chunk = (char *)chunk_words;
static char path[128];                  /* the file: DIR/sysbench.dat */

/* ---- small helpers ---------------------------------------------------------------- */

static unsigned parse_uint(const char *s, int *ok)
{
	unsigned v = 0;

	if (!s || !*s)
		*ok = 0;
	while (s && *s) {
		if (*s < '0' || *s > '9' || v > 100000000u)
			*ok = 0;
		v = v * 10 + (unsigned)(*s++ - '0');
	}
	return v;
}

/* "N" MiB or "Nk" KiB, in KiB; a multiple of the chunk, under 1 GiB (so four disks' bytes fit ops=). */
static unsigned parse_size(const char *s, int *ok)
{
	char digits[16];
	unsigned n = 0, kib;
	int k = 0;

	while (s && *s && n < sizeof(digits) - 1) {
		if (*s == 'k' && s[1] == 0)
			k = 1;
		else
			digits[n++] = *s;
		s++;
	}
	digits[n] = 0;
	kib = parse_uint(digits, ok);
	if (!k)
		kib = kib > 1024 ? 0 : kib * 1024;
	if (kib == 0 || kib >= 1024 * 1024 || kib % (CHUNK / 1024))
		*ok = 0;
	return kib;
}

static void sleep_ms(unsigned ms)
{
	struct {
		long tv_sec, tv_nsec;
	} ts = { (long)(ms / 1000), (long)(ms % 1000) * 1000000 };

	sys2(__NR_nanosleep, &ts, 0);
}

/* MB/s (10^6 bytes per second) in tenths. */
static unsigned long long mbs_tenths(unsigned long long bytes, unsigned long long ns)
{
	return ns ? bytes * 10000ull / ns : 0;
}

/* name + one digit, into buf (at most 31 characters). */
static const char *name_k(char *buf, const char *name, unsigned k)
{
	unsigned n = 0;

	while (*name && n < 30)
		buf[n++] = *name++;
	buf[n++] = (char)('0' + k);
	buf[n] = 0;
	return buf;
}

/* The chunk at index i of device dev: a pattern, stamped with where it belongs. */
static void fill_chunk(unsigned dev, unsigned i)
{
	unsigned *words = chunk_words;

	for (unsigned b = 12; b < CHUNK; b++)
		chunk[b] = (char)(b * 7 + (b >> 9) + dev);
	words[0] = STAMP;
	words[1] = i;
	words[2] = dev;
}

static int chunk_ok(unsigned dev, unsigned i)
{
	const unsigned *words = chunk_words;

	return words[0] == STAMP && words[1] == i && words[2] == dev &&
	       chunk[CHUNK - 1] == (char)((CHUNK - 1) * 7 + ((CHUNK - 1) >> 9) + dev);
}

/* ---- options ------------------------------------------------------------------------ */

static int parse_opts(int argc, char **argv, struct disk_opts *o)
{
	int ok = 1;

	*o = (struct disk_opts){ .file_kib = 64 * 1024, .raw_kib = 16 * 1024, .rounds = 3, .wait_ms = 0 };
	for (int i = 0; i < argc && ok; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : 0;

		if (a[0] != '-') {
			if (o->ndevs == MAX_DEVS)
				ok = 0;
			else
				o->devs[o->ndevs++] = a;
			continue;
		}
		if (!v || a[1] == 0 || a[2] != 0) {
			ok = 0;
			break;
		}
		i++;
		switch (a[1]) {
		case 's': o->file_kib = parse_size(v, &ok); break;
		case 'S': o->raw_kib = parse_size(v, &ok); break;
		case 'r': o->rounds = parse_uint(v, &ok); break;
		case 'w': o->wait_ms = parse_uint(v, &ok); break;
		case 'M': o->mount_dev = v; break;
		case 'D': o->mount_dir = v; break;
		case 'k':
			if (o->nmodules == MAX_MODULES)
				ok = 0;
			else
				o->modules[o->nmodules++] = v;
			break;
		default: ok = 0;
		}
	}
	if (!o->mount_dev != !o->mount_dir || o->rounds < 1 || o->rounds > 100 || (!o->mount_dev && !o->ndevs))
		ok = 0;
	return ok;
}

static void usage(void)
{
	struct line l;

	line_start(&l, "sysbench: error what=usage: sysbench disk [-M DEV -D DIR [-s SIZE]] [-S SIZE] "
			"[-r N] [-k MODULE]... [-w MS] [DEVICE]...");
	put_end(&l);
	status = 1;
}

/* ---- before the figures: modules, devices -------------------------------------------- */

static void load_modules(const struct disk_opts *o)
{
	for (unsigned i = 0; i < o->nmodules; i++) {
		long fd = sys2(__NR_open, o->modules[i], O_RDONLY), r;

		r = fd < 0 ? fd : sys3(__NR_finit_module, fd, "", 0);
		if (r < 0 && r != -EEXIST)
			error(o->modules[i], r);
		if (fd >= 0)
			sys1(__NR_close, fd);
	}
}

/* Open dev, trying again for up to wait_ms (a disk Linux is still probing). */
static long open_dev(const char *dev, int flags, unsigned wait_ms)
{
	long fd;

	for (unsigned waited = 0;; waited += 50) {
		fd = sys2(__NR_open, dev, flags | O_LARGEFILE);
		if (fd >= 0 || waited >= wait_ms)
			return fd;
		sleep_ms(50);
	}
}

static void describe(const struct disk_opts *o)
{
	struct line l;

	line_start(&l, "sysbench: disk file=");
	put_str(&l, o->mount_dev ? o->mount_dev : "-");
	put_str(&l, " file_kib=");
	put_u64(&l, o->mount_dev ? o->file_kib : 0);
	put_str(&l, " raw_kib=");
	put_u64(&l, o->ndevs ? o->raw_kib : 0);
	put_str(&l, " rounds=");
	put_u64(&l, o->rounds);
	put_str(&l, " devices=");
	for (unsigned i = 0; i < o->ndevs; i++) {
		put_str(&l, i ? "," : "");
		put_str(&l, o->devs[i]);
	}
	put_end(&l);
}

/* ---- the file: write, remount, read -------------------------------------------------- */

static long mount_fs(const struct disk_opts *o)
{
	return sys5(__NR_mount, (long)o->mount_dev, (long)o->mount_dir, (long)"ext2", 0, 0);
}

/* n chunks into fd (writing) or out of it, checked; 0 or the failing call's result. */
static long move_chunks(long fd, int write, unsigned dev, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		long r;

		if (write)
			fill_chunk(dev, i);
		r = sys3(write ? __NR_write : __NR_read, fd, chunk, CHUNK);
		if (r != CHUNK)
			return r < 0 ? r : -EIO;
		if (!write && !chunk_ok(dev, i))
			return -EIO;            /* not what was written: say so, whatever the speed */
	}
	return 0;
}

static void file_round(const struct disk_opts *o, int round)
{
	unsigned n = o->file_kib / (CHUNK / 1024);
	unsigned long long bytes = (unsigned long long)n * CHUNK, t0;
	long fd, r;

	t0 = now_ns();
	fd = sys3(__NR_open, path, O_WRONLY | O_CREAT | O_TRUNC | O_LARGEFILE, 0644);
	r = fd < 0 ? fd : move_chunks(fd, 1, 0, n);
	if (r == 0)
		r = sys1(__NR_fsync, fd);
	if (fd >= 0)
		sys1(__NR_close, fd);
	if (r < 0) {
		error("file_write", r);
		return;
	}
	figure("file_write_mbs", round, (unsigned)bytes, mbs_tenths(bytes, now_ns() - t0));
	/* Out of every cache: unmounting writes back and forgets the file system's blocks. */
	r = sys2(__NR_umount2, o->mount_dir, 0);
	if (r < 0 || (r = mount_fs(o)) < 0) {
		error("remount", r);
		return;
	}
	t0 = now_ns();
	fd = sys2(__NR_open, path, O_RDONLY | O_LARGEFILE);
	r = fd < 0 ? fd : move_chunks(fd, 0, 0, n);
	if (fd >= 0)
		sys1(__NR_close, fd);
	if (r < 0) {
		error("file_read", r);
		return;
	}
	figure("file_read_mbs", round, (unsigned)bytes, mbs_tenths(bytes, now_ns() - t0));
	sys1(__NR_unlink, path);
}

static void bench_file(const struct disk_opts *o)
{
	unsigned n = 0;
	long r;

	for (const char *s = o->mount_dir; *s && n < sizeof(path) - 16; s++)
		path[n++] = *s;
	for (const char *s = "/sysbench.dat"; *s; s++)
		path[n++] = *s;
	path[n] = 0;
	sys2(__NR_mkdir, o->mount_dir, 0755);           /* EEXIST is fine */
	for (unsigned waited = 0; (r = mount_fs(o)) < 0 && waited < o->wait_ms; waited += 50)
		sleep_ms(50);
	if (r < 0) {
		error("mount", r);
		return;
	}
	for (unsigned round = 1; round <= o->rounds; round++)
		file_round(o, (int)round);
	sys2(__NR_umount2, o->mount_dir, 0);
}

/* ---- raw devices: K processes, K disks ------------------------------------------------ */

/*
 * Worker `index`: its CPU, its device. The cache is emptied before the start
 * (not timed), then n chunks move; a write's time runs to the end of its
 * fsync(). Its time in ns goes down `result`, 0 if anything failed.
 */
static void __attribute__((noreturn)) raw_worker(const struct disk_opts *o, unsigned index, int write,
						 int ready, int go, int result)
{
	unsigned n = o->raw_kib / (CHUNK / 1024);
	unsigned long long start, ns = 0;
	long fd, r;
	char b = 'x';

	pin_to(nth_cpu(index % ncpus));
	fd = open_dev(o->devs[index], write ? O_RDWR : O_RDONLY, 0);
	r = fd < 0 ? fd : sys3(__NR_ioctl, fd, BLKFLSBUF, 0);
	sys3(__NR_write, ready, &b, 1);
	sys3(__NR_read, go, &b, 1);                     /* all start together */
	start = now_ns();
	if (r == 0)
		r = move_chunks(fd, write, index, n);
	if (r == 0 && write)
		r = sys1(__NR_fsync, fd);
	if (r == 0)
		ns = now_ns() - start;
	else
		error(write ? "raw_write" : "raw_read", r);
	sys3(__NR_write, result, &ns, sizeof(ns));
	if (fd >= 0)
		sys1(__NR_close, fd);
	exit_now(0);
}

static void raw_run(const struct disk_opts *o, unsigned k, int write, int round)
{
	unsigned long long bytes = (unsigned long long)k * o->raw_kib * 1024, start, ns, wall;
	int ready[2], go[2], result[2], failed = 0;
	char name[32], go_bytes[MAX_DEVS];

	if (sys1(__NR_pipe, ready) < 0 || sys1(__NR_pipe, go) < 0 || sys1(__NR_pipe, result) < 0) {
		error("pipe", -1);
		return;
	}
	for (unsigned i = 0; i < k; i++) {
		long pid = sys0(__NR_fork);

		if (pid == 0)
			raw_worker(o, i, write, ready[1], go[0], result[1]);
		if (pid < 0) {
			error("fork", pid);
			k = i;
			failed = 1;
		}
	}
	for (unsigned i = 0; i < k; i++)
		sys3(__NR_read, ready[0], go_bytes, 1);
	start = now_ns();
	sys3(__NR_write, go[1], go_bytes, k);
	for (unsigned i = 0; i < k; i++)
		if (sys3(__NR_read, result[0], &ns, sizeof(ns)) != sizeof(ns) || ns == 0)
			failed = 1;
	wall = now_ns() - start;
	for (unsigned i = 0; i < k; i++)
		wait_child(-1);
	for (int i = 0; i < 2; i++) {
		sys1(__NR_close, ready[i]);
		sys1(__NR_close, go[i]);
		sys1(__NR_close, result[i]);
	}
	if (!failed)
		figure(name_k(name, write ? "raw_write_mbs_d" : "raw_read_mbs_d", k), round, (unsigned)bytes,
		       mbs_tenths(bytes, wall));
}

static void bench_raw(const struct disk_opts *o)
{
	for (unsigned i = 0; i < o->ndevs; i++) {
		long fd = open_dev(o->devs[i], O_RDONLY, o->wait_ms);

		if (fd < 0) {
			error(o->devs[i], fd);
			return;
		}
		sys1(__NR_close, fd);
	}
	for (unsigned round = 1; round <= o->rounds; round++)
		for (unsigned j = 0; j < o->ndevs; j++) {
			unsigned k = round % 2 ? j + 1 : o->ndevs - j;

			raw_run(o, k, 1, (int)round);
			raw_run(o, k, 0, (int)round);   /* reads back what that write wrote */
		}
}

int disk_main(int argc, char **argv)
{
	struct disk_opts o;

	if (!parse_opts(argc, argv, &o)) {
		usage();
		return 1;
	}
	describe(&o);
	load_modules(&o);
	if (o.mount_dev)
		bench_file(&o);
	if (o.ndevs)
		bench_raw(&o);
	return status;
}
