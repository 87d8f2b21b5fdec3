/* /init of the Linux reference: smpix's guest test programs run on Debian's own i386 kernel.
 *
 * smpix's tests claim Linux's behaviour. To prove each claim, the very same i386 binaries run on
 * Linux too. A host may refuse i386 programs (an x86_64 kernel built without IA32 emulation, a
 * sandbox), and a 64-bit kernel's compat layer is not quite i386 Linux anyway; so
 * tools/test/linuxref.py boots Debian's linux-image-686 in QEMU with an initramfs holding this
 * program, the test binaries (under /chroot/bin) and a plan, /linuxref/plan, one run a line:
 *
 *	ID MODE TIMEOUT [VAR=VALUE ...] PROGRAM [ARG ...]
 *
 * MODE says where the program runs, as the harness ran it on a host:
 *	plain	a child of init, stdin /dev/null, stdout and stderr a pipe (subprocess.run)
 *	tty	session leader on the serial line /dev/ttyS0, its controlling tty (pty.fork)
 *	pidns	as plain, in a new pid namespace (unshare -pf): /proc is not its namespace's
 *	chroot	pid 1 of new pid and mount namespaces, chrooted into /chroot (bin, tmp, an empty
 *		dev, its own proc), as user nobody, no tty: tools/test/cases/49_linux_envs.py's place
 *
 * Each run's output is framed on the console by "linuxref: begin ID" and
 * "linuxref: end ID status=exit:N|signal:N|timeout", which the harness reads. Then power off.
 * Built with gcc -m32 -static (glibc): it is a Linux program, not an smpix one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORDS 32
#define NOBODY 65534

struct run {
	char *id, *mode;
	int timeout;
	char *env[MAX_WORDS];
	char *argv[MAX_WORDS];
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static void mount_or_say(const char *src, const char *dir, const char *type, unsigned long flags,
			 const char *data)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, flags, data) != 0)
		say("linuxref: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* What a Debian system has mounted before any program runs. */
static void mount_basics(void)
{
	mount_or_say("proc", "/proc", "proc", 0, NULL);
	mount_or_say("sysfs", "/sys", "sysfs", 0, NULL);
	mount_or_say("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount_or_say("devpts", "/dev/pts", "devpts", 0, "mode=620,ptmxmode=666");
	mount_or_say("tmpfs", "/tmp", "tmpfs", 0, "mode=1777");
	symlink("rtc0", "/dev/rtc");    /* udev's link; devtmpfs makes only rtc0 */
}

/* Split a plan line into words (no quoting: the plan is ours). Returns 0 for a bad line. */
static int parse(char *line, struct run *r)
{
	char *words[MAX_WORDS * 2], *save = NULL;
	int n = 0, i, e = 0, a = 0;

	for (char *w = strtok_r(line, " \t\n", &save); w && n < MAX_WORDS * 2 - 1; w = strtok_r(NULL, " \t\n", &save))
		words[n++] = w;
	if (n < 4)
		return 0;
	r->id = words[0];
	r->mode = words[1];
	r->timeout = atoi(words[2]);
	for (i = 3; i < n && strchr(words[i], '=') && e < MAX_WORDS - 1; i++)
		r->env[e++] = words[i];
	r->env[e++] = "PATH=/bin:/chroot/bin";
	r->env[e] = NULL;
	for (; i < n && a < MAX_WORDS - 1; i++)
		r->argv[a++] = words[i];
	r->argv[a] = NULL;
	return a > 0;
}

/*
 * tty mode: when a session leader exits, Linux hangs its (non-pty) controlling
 * terminal up, and the hangup throws away what is still waiting to go out
 * of the serial line: a slow host lost a test's last lines that way. So the
 * leader is this process, which runs the program in a child, lets the
 * line drain, and only then exits, as the program did.
 */
static void lead_session_until_drained(void)
{
	pid_t pid = fork();
	int st;

	if (pid <= 0)
		return;                 /* the child (or no fork at all) runs the program */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	tcdrain(1);
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		kill(getpid(), WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 127);
}

/* In the child: the program's standard files, as its mode says. */
static void set_up_files(const struct run *r, int out)
{
	int fd;

	if (strcmp(r->mode, "tty") == 0) {
		/* A new session whose first tty opened becomes its controlling terminal. */
		setsid();
		fd = open("/dev/ttyS0", O_RDWR);
		if (fd < 0)
			_exit(125);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
		lead_session_until_drained();
		return;
	}
	fd = open("/dev/null", O_RDONLY);
	dup2(fd, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (fd > 2)
		close(fd);
}

/* chroot mode, as pid 1 of the new namespaces: /proc of its own, the bare root, user nobody. */
static void enter_bare_root(void)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("proc", "/chroot/proc", "proc", 0, NULL) != 0 ||
	    chroot("/chroot") != 0 || chdir("/") != 0 ||
	    setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0) {
		perror("linuxref: entering the bare root");
		_exit(125);
	}
}

/* pidns and chroot modes: the caller becomes a waiter in the old namespace, and its child,
 * pid 1 of the new one, goes on. The waiter exits as the child did. */
static void enter_new_namespaces(int flags)
{
	pid_t pid;
	int st;

	if (unshare(flags) != 0) {
		perror("linuxref: unshare");
		_exit(125);
	}
	pid = fork();
	if (pid < 0)
		_exit(125);
	if (pid == 0)
		return;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		kill(getpid(), WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 125);
}

static void child(const struct run *r, int out)
{
	set_up_files(r, out);
	if (strcmp(r->mode, "pidns") == 0)
		enter_new_namespaces(CLONE_NEWPID);
	if (strcmp(r->mode, "chroot") == 0) {
		enter_new_namespaces(CLONE_NEWPID | CLONE_NEWNS);
		enter_bare_root();
	} else if (chdir("/") != 0) {
		_exit(125);
	}
	execve(r->argv[0], r->argv, r->env);
	fprintf(stderr, "linuxref: exec %s: %s\n", r->argv[0], strerror(errno));
	_exit(127);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Print one /proc file of a process on a line of its own, for a run that timed out. */
static void show_proc_file(pid_t pid, const char *file)
{
	char path[64], buf[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (char *c = buf; *c; c++)
		if (*c == '\n' && c[1])
			*c = ' ';
	say("linuxref: pid %d %s: %s%s", pid, file, buf, n > 0 && buf[n - 1] == '\n' ? "" : "\n");
}

/* Where a stuck run is: each of its processes' state, wait channel and system call. */
static void show_stuck(pid_t pid)
{
	char path[64], buf[512], *save = NULL;
	ssize_t n;
	int fd;

	show_proc_file(pid, "wchan");
	show_proc_file(pid, "syscall");
	show_proc_file(pid, "stack");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (char *w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
		show_stuck(atoi(w));
}

/* Copy the child's pipe to the console until it exits; kill it at the deadline.
 * Returns its wait status, or -1 on a timeout. A grandchild left holding the pipe
 * must not keep us here: once the child is reaped, only what is already there is read. */
static int relay(pid_t pid, int in, int timeout, int *last_char)
{
	double deadline = now() + timeout;
	char buf[4096];
	int st = 0, reaped = 0;

	for (;;) {
		struct pollfd p = { .fd = in, .events = POLLIN };
		int ready = in >= 0 ? poll(&p, 1, reaped ? 0 : 100) : (usleep(100000), 0);

		if (ready > 0) {
			ssize_t n = read(in, buf, sizeof(buf));

			if (n > 0) {
				fwrite(buf, 1, n, stdout);
				fflush(stdout);
				*last_char = buf[n - 1];
				continue;
			}
			if (n == 0)
				in = -1;
		}
		if (reaped)
			return st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			reaped = 1;
			if (in < 0)
				return st;
			continue;
		}
		if (now() > deadline) {
			show_stuck(pid);
			kill(pid, SIGKILL);
			kill(-pid, SIGKILL);    /* tty mode: the program, a child of its session's leader */
			waitpid(pid, &st, 0);
			return -1;
		}
	}
}

static void run_one(struct run *r)
{
	int p[2] = { -1, -1 }, last = '\n', st;
	int tty = strcmp(r->mode, "tty") == 0;
	pid_t pid;

	say("linuxref: begin %s\n", r->id);
	if (!tty && pipe(p) != 0) {
		say("\nlinuxref: end %s status=error pipe\n", r->id);
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child(r, p[1]);
	}
	if (!tty)
		close(p[1]);
	st = relay(pid, tty ? -1 : p[0], r->timeout, &last);
	if (!tty)
		close(p[0]);
	if (tty)
		tcdrain(1);     /* what it wrote to the serial line is out before our next line */
	if (last != '\n')
		say("\n");
	if (st == -1)
		say("linuxref: end %s status=timeout\n", r->id);
	else if (WIFSIGNALED(st))
		say("linuxref: end %s status=signal:%d\n", r->id, WTERMSIG(st));
	else
		say("linuxref: end %s status=exit:%d\n", r->id, WEXITSTATUS(st));
}

int main(void)
{
	struct utsname u;
	char line[1024];
	FILE *plan;

	setsid();               /* init's session: the programs are in one, not leaders of it */
	mount_basics();
	klogctl(8, NULL, 1);    /* console loglevel 1: no kernel lines inside a program's output */
	uname(&u);
	say("linuxref: start release=%s machine=%s cpus=%ld\n", u.release, u.machine,
	    sysconf(_SC_NPROCESSORS_ONLN));
	plan = fopen("/linuxref/plan", "r");
	if (!plan)
		say("linuxref: no /linuxref/plan: %s\n", strerror(errno));
	while (plan && fgets(line, sizeof(line), plan)) {
		struct run r;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!parse(line, &r)) {
			say("linuxref: bad plan line: %s", line);
			continue;
		}
		run_one(&r);
	}
	say("linuxref: done\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
