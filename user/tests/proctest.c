/*
 * /bin/proctest: procfs. Each file must parse in Linux's format (the same
 * parser runs on this Linux host's /proc: build/proctest-linux), read-only
 * files refuse writers with EACCES, /proc/bkl shows procfs's own BKL site and
 * resets on "0", /proc/sys/kernel's knobs take good values and refuse bad ones
 * and stay outside the BKL. Lines "proctest: cpus N" and "proctest: cpu I
 * apicid A" let tools/test/cases/46_pipes_proc.py compare with the boot log.
 *
 * On a Linux host the test may find itself where /proc cannot show what it
 * checks (a chroot with no /proc, or whose root is no mount point, a /proc of
 * another pid namespace, a container whose /proc/cpuinfo is virtualised):
 * such tests say SKIP and why (gtest.h's SKIP_IF), never FAIL.
 */
#include "gtest.h"

#define BAD_BUF ((void *)0xC0000000)

static char text[65536];
static int ncpus;
static char *prog_argv0;
static bool proc_mounted, proc_ours;    /* always both on smpix; see main() */

/* For tests that read /proc, and those that read our own /proc/PID too. */
#define NEEDS_PROC() SKIP_IF(!proc_mounted, "no procfs on /proc here (a chroot without /proc?)")
#define NEEDS_OWN_PROC()                                                                  \
	do {                                                                              \
		NEEDS_PROC();                                                             \
		SKIP_IF(!proc_ours, "/proc is another pid namespace's: /proc/self is not us"); \
	} while (0)

/* The next line of *p (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **p)
{
	char *line = *p, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = 0;
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number at *s; *s moves past it. -1 if there is none. */
static long long number(const char **s)
{
	long long v = 0;

	if (!is_digit(**s))
		return -1;
	while (is_digit(**s))
		v = v * 10 + (*(*s)++ - '0');
	return v;
}

static void skip_spaces(const char **s)
{
	while (**s == ' ' || **s == '\t')
		(*s)++;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- /proc/cpuinfo -------------------------------------------------------------------- */

/* "key<tabs>: value" lines in blocks separated by blank lines, one block per CPU. */
static void t_cpuinfo(void)
{
	char *p = text, *line;
	int blocks = 0, keys_ok = 1, apicids[64], seen_flags = 0, seen_model = 0;

	NEEDS_PROC();
	CHECK(gt_read_file("/proc/cpuinfo", text, sizeof(text)) > 0);
	while ((line = next_line(&p))) {
		const char *v = line;
		char *colon = strchr(line, ':');

		if (!*line)
			continue;
		if (!colon) {
			keys_ok = 0;
			continue;
		}
		/* The key is padded with tabs up to the colon, then ": " (or ":" and the end). */
		if (colon[1] != ' ' && colon[1] != 0)
			keys_ok = 0;
		if (starts_with(line, "processor\t: ")) {
			v = line + 12;
			CHECK(number(&v) == blocks);
			CHECK(blocks < 64);
			apicids[blocks] = -1;
			blocks++;
		} else if (starts_with(line, "apicid\t\t: ") && blocks > 0) {
			v = line + 10;
			apicids[blocks - 1] = (int)number(&v);
		} else if (starts_with(line, "flags\t\t: ")) {
			seen_flags++;
			CHECK(gt_strstr(line, " fpu") || gt_strstr(line, ": fpu"));
		} else if (starts_with(line, "model name\t: ")) {
			seen_model++;
		}
	}
	CHECK(keys_ok);
	CHECK(blocks >= 1);
	CHECK(seen_flags == blocks && seen_model == blocks);
	ncpus = blocks;
	printf("proctest: cpus %d\n", blocks);
	for (int i = 0; i < blocks; i++) {
		CHECK(apicids[i] >= 0);
		for (int j = 0; j < i; j++)
			CHECK(apicids[i] != apicids[j]);
		if (!ON_LINUX)
			printf("proctest: cpu %d apicid %d\n", i, apicids[i]);
	}
}

/* ---- /proc/meminfo --------------------------------------------------------------------- */

/* "Name:" padded, a number, " kB" (a few Linux counters have no unit). */
static void t_meminfo(void)
{
	char *p = text, *line;
	long long total = -1, free = -1, avail = -1;
	int lines = 0;

	NEEDS_PROC();
	CHECK(gt_read_file("/proc/meminfo", text, sizeof(text)) > 0);
	while ((line = next_line(&p))) {
		char *colon = strchr(line, ':');
		const char *v;
		long long n;

		CHECK(colon && colon > line);
		v = colon + 1;
		skip_spaces(&v);
		n = number(&v);
		CHECK(n >= 0);
		CHECK(*v == 0 || strcmp(v, " kB") == 0);
		/* Linux's layout puts the number's last digit at column 23 for the kB lines. */
		if (*v)
			CHECK(v - line == 23 || v - line > 23);
		if (starts_with(line, "MemTotal:"))
			total = n;
		else if (starts_with(line, "MemFree:"))
			free = n;
		else if (starts_with(line, "MemAvailable:"))
			avail = n;
		lines++;
	}
	CHECK(lines >= 3);
	CHECK(total > 0 && free >= 0 && avail >= 0);
	CHECK(free <= total && avail <= total);
}

/* ---- /proc/uptime ---------------------------------------------------------------------- */

static long long centis(const char **s)
{
	long long whole = number(s), frac;

	if (whole < 0 || **s != '.')
		return -1;
	(*s)++;
	frac = number(s);
	return frac < 0 ? -1 : whole * 100 + frac;
}

static void t_uptime(void)
{
	const char *v;
	long long up1, idle, up2;

	NEEDS_PROC();
	CHECK(gt_read_file("/proc/uptime", text, sizeof(text)) > 0);
	v = text;
	up1 = centis(&v);
	CHECK(up1 > 0 && *v == ' ');
	v++;
	idle = centis(&v);
	CHECK(idle >= 0 && strcmp(v, "\n") == 0);
	gt_msleep(300);
	CHECK(gt_read_file("/proc/uptime", text, sizeof(text)) > 0);
	v = text;
	up2 = centis(&v);
	CHECK(up2 - up1 >= 20);         /* 300 ms later, give or take */
}

/* ---- /proc/interrupts ------------------------------------------------------------------ */

/* A header "CPU0 CPU1 ...", then "NAME:" and one count per CPU on each line. */
static void t_interrupts(void)
{
	char *p = text, *line;
	int cols = 0, loc_seen = 0;

	NEEDS_PROC();
	CHECK(ncpus > 0);
	CHECK(gt_read_file("/proc/interrupts", text, sizeof(text)) > 0);
	line = next_line(&p);
	CHECK(line);
	for (const char *c = line; (c = gt_strstr(c, "CPU")); c += 3)
		cols++;
	/* A container's /proc/cpuinfo may be virtualised (lxcfs) to the CPUs it may use. */
	SKIP_IF(ON_LINUX && cols != ncpus, "/proc/cpuinfo lists %d CPUs, /proc/interrupts %d "
		"(a container's virtualised cpuinfo?)", ncpus, cols);
	CHECK(cols == ncpus);
	while ((line = next_line(&p))) {
		const char *v = strchr(line, ':');
		int counts = 0;
		long long loc_min = -1;

		CHECK(v);
		v++;
		for (;;) {
			long long n;

			skip_spaces(&v);
			n = number(&v);
			if (n < 0)
				break;
			if (loc_min < 0 || n < loc_min)
				loc_min = n;
			counts++;
		}
		/* ERR and MIS have one number on Linux; every other line one per CPU. */
		CHECK(counts == cols || counts == 1 || counts == 0);
		if (gt_strstr(line, "LOC:")) {
			loc_seen = 1;
			CHECK(counts == cols && loc_min > 0);      /* every CPU's timer ticks */
		}
	}
	CHECK(loc_seen);
}

/* ---- /proc/mounts ----------------------------------------------------------------------- */

static void t_mounts(void)
{
	char *p = text, *line;
	int root = 0, proc = 0;

	NEEDS_PROC();
	CHECK(gt_read_file("/proc/mounts", text, sizeof(text)) > 0);
	while ((line = next_line(&p))) {
		char *f[6];
		int n = 0;

		for (char *s = line; *s && n < 6;) {
			while (*s == ' ')
				*s++ = 0;
			if (!*s)
				break;
			f[n++] = s;
			while (*s && *s != ' ')
				s++;
		}
		CHECK(n == 6);
		CHECK(f[1][0] == '/');
		root |= strcmp(f[1], "/") == 0;
		proc |= strcmp(f[1], "/proc") == 0 && strncmp(f[2], "proc", 5) == 0;
	}
	/* In a chroot only the mounts under its root show, and its root is rarely a mount point. */
	SKIP_IF(ON_LINUX && !root, "/proc/mounts has no / (a chroot whose root is not a mount point)");
	CHECK(root && proc);
}

/* ---- /proc/self and /proc/PID --------------------------------------------------------- */

static void t_self(void)
{
	char link[32], want[32];
	long n;

	NEEDS_OWN_PROC();
	n = SYS3(__NR_readlink, "/proc/self", link, sizeof(link));
	CHECK(n > 0);
	link[n] = 0;
	snprintf(want, sizeof(want), "%ld", SYS0(__NR_getpid));
	CHECK(strcmp(link, want) == 0);
	CHECK(SYS3(__NR_readlink, "/proc/self", BAD_BUF, 16) == -EFAULT);
}

/* Split /proc/PID/stat: fields[0] pid, [1] comm without parentheses, [2] state, ... */
static int stat_fields(char *line, char **fields, int max)
{
	char *open = strchr(line, '('), *close = gt_strrchr(line, ')');
	int n = 1;

	if (!open || !close || close < open)
		return -1;
	*open = 0;
	*close = 0;
	fields[0] = line;
	fields[n++] = open + 1;
	for (char *s = close + 1; *s && n < max;) {
		while (*s == ' ' || *s == '\n')
			*s++ = 0;
		if (!*s)
			break;
		fields[n++] = s;
		while (*s && *s != ' ' && *s != '\n')
			s++;
	}
	return n;
}

static long field_num(const char *s)
{
	long v = 0, neg = *s == '-';

	if (neg)
		s++;
	while (is_digit(*s))
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

static const char *basename_of(const char *path)
{
	const char *b = gt_strrchr(path, '/');

	return b ? b + 1 : path;
}

static void t_pid_stat(void)
{
	char path[64], *f[64];
	int pid = (int)SYS0(__NR_getpid), child, n, status;
	long my_start, cpu;
	uint8_t allowed[128];           /* a cpu_set_t big enough for any host */
	char comm[32];

	NEEDS_OWN_PROC();
	memset(allowed, 0, sizeof(allowed));
	CHECK(SYS3(__NR_sched_getaffinity, 0, sizeof(allowed), allowed) > 0);
	CHECK(gt_read_file("/proc/self/stat", text, sizeof(text)) > 0);
	n = stat_fields(text, f, 64);
	CHECK(n >= 52);                         /* Linux's 52 fields */
	CHECK(field_num(f[0]) == pid);
	snprintf(comm, sizeof(comm), "%.15s", basename_of(prog_argv0));
	CHECK(strcmp(f[1], comm) == 0);
	CHECK(strcmp(f[2], "R") == 0);           /* we are running: we are reading it */
	CHECK(field_num(f[3]) == SYS0(__NR_getppid));
	CHECK(field_num(f[19]) == 1);            /* num_threads */
	/* processor: the CPU we last ran on, one we may run on (whatever the CPUs are numbered). */
	cpu = field_num(f[38]);
	CHECK(cpu >= 0 && cpu < (long)sizeof(allowed) * 8 && (allowed[cpu / 8] >> (cpu % 8)) & 1);

	my_start = field_num(f[21]);
	CHECK(my_start >= 0);

	/* Another process's: a sleeping child. */
	child = gt_fork();
	if (child == 0) {
		gt_msleep(400);
		gt_exit(0);
	}
	CHECK(child > 0);
	gt_msleep(100);
	snprintf(path, sizeof(path), "/proc/%d/stat", child);
	CHECK(gt_read_file(path, text, sizeof(text)) > 0);
	n = stat_fields(text, f, 64);
	CHECK(n >= 52);
	CHECK(field_num(f[0]) == child);
	CHECK(strcmp(f[2], "S") == 0);
	CHECK(field_num(f[3]) == pid);
	CHECK(field_num(f[21]) >= my_start);    /* starttime: the child was born after us */
	status = gt_wait(child);
	CHECK(WIFEXITED(status));
	/* Gone: its directory with it. */
	CHECK(gt_read_file(path, text, sizeof(text)) == -ENOENT);
}

static void t_pid_status(void)
{
	char *p = text, *line, want[32];
	int name = 0, pid = 0, ppid = 0, state = 0;

	NEEDS_OWN_PROC();
	CHECK(gt_read_file("/proc/self/status", text, sizeof(text)) > 0);
	while ((line = next_line(&p))) {
		char *colon = strchr(line, ':');

		CHECK(colon && colon[1] == '\t');
		if (starts_with(line, "Name:\t")) {
			snprintf(want, sizeof(want), "%.15s", basename_of(prog_argv0));
			name = strcmp(line + 6, want) == 0;
		} else if (starts_with(line, "Pid:\t")) {
			pid = field_num(line + 5) == SYS0(__NR_getpid);
		} else if (starts_with(line, "PPid:\t")) {
			ppid = field_num(line + 6) == SYS0(__NR_getppid);
		} else if (starts_with(line, "State:\t")) {
			state = starts_with(line + 7, "R (running)");
		}
	}
	CHECK(name && pid && ppid && state);
}

/* struct sigaction as rt_sigaction takes it on i386. */
struct gt_sigaction {
	uint32_t handler, flags, restorer;
	uint32_t mask[2];
};

/* A child that ignores SIGPIPE shows it in SigIgn (bit 12: signal 13), in status and stat. */
static void t_pid_signal_sets(void)
{
	int pid, status;

	NEEDS_OWN_PROC();
	pid = gt_fork();
	if (pid == 0) {
		struct gt_sigaction ign = { 1 /* SIG_IGN */, 0, 0, { 0, 0 } };
		char *f[64], *p = text, *line;
		int ok = 0;

		if (SYS4(__NR_rt_sigaction, SIGPIPE, &ign, 0, 8) != 0)
			gt_exit(2);
		if (gt_read_file("/proc/self/status", text, sizeof(text)) <= 0)
			gt_exit(3);
		while ((line = next_line(&p))) {
			uint64_t set = 0;
			const char *h = line + 8;

			if (!starts_with(line, "SigIgn:\t") || strlen(h) != 16)
				continue;
			for (; *h; h++)
				set = set << 4 | (uint64_t)(*h >= 'a' ? *h - 'a' + 10 : *h - '0');
			ok = (set >> (SIGPIPE - 1)) & 1;
		}
		if (!ok)
			gt_exit(4);
		if (gt_read_file("/proc/self/stat", text, sizeof(text)) <= 0 || stat_fields(text, f, 64) < 52)
			gt_exit(5);
		gt_exit((field_num(f[32]) & 0x1000) ? 0 : 6);  /* field 33, sigignore */
	}
	CHECK(pid > 0);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 0);
}

static void t_pid_cmdline_exe(void)
{
	long n;
	char link[256];

	NEEDS_OWN_PROC();
	n = gt_read_file("/proc/self/cmdline", text, sizeof(text));
	/* The arguments, each with its NUL: argv[0] first. */
	CHECK(n > 0 && (size_t)n >= strlen(prog_argv0) + 1);
	CHECK(strcmp(text, prog_argv0) == 0);
	CHECK(text[n - 1] == 0);
	n = SYS3(__NR_readlink, "/proc/self/exe", link, sizeof(link) - 1);
	CHECK(n > 0);
	link[n] = 0;
	CHECK(link[0] == '/');
	CHECK(strcmp(basename_of(link), basename_of(prog_argv0)) == 0);
}

/* getdents64 on /proc: the files and our own directory. */
static void t_readdir(void)
{
	static char dents[8192];
	char me[16];
	int fd, cpuinfo = 0, self = 0, mine = 0;
	long n;

	NEEDS_OWN_PROC();
	fd = (int)SYS2(__NR_open, "/proc", O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	snprintf(me, sizeof(me), "%ld", SYS0(__NR_getpid));
	while ((n = SYS3(__NR_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(dents + off);

			cpuinfo |= strcmp(d->d_name, "cpuinfo") == 0 && d->d_type == DT_REG;
			self |= strcmp(d->d_name, "self") == 0 && d->d_type == DT_LNK;
			mine |= strcmp(d->d_name, me) == 0 && d->d_type == DT_DIR;
			off += d->d_reclen;
		}
	}
	CHECK(n == 0);
	gt_close(fd);
	CHECK(cpuinfo && self && mine);
}

static void t_bad_input(void)
{
	int fd;

	NEEDS_PROC();
	fd = (int)SYS2(__NR_open, "/proc/cpuinfo", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(gt_read(fd, BAD_BUF, 100) == -EFAULT);
	CHECK(gt_read(fd, BAD_NULL, 100) == -EFAULT);
	gt_close(fd);
	CHECK(SYS2(__NR_open, "/proc/no-such-file", O_RDONLY) == -ENOENT);
	CHECK(SYS2(__NR_open, "/proc/5000000/stat", O_RDONLY) == -ENOENT);     /* above Linux's pid_max */
	CHECK(SYS2(__NR_open, "/proc/self/no-such-file", O_RDONLY) == -ENOENT);
	CHECK(SYS2(__NR_open, BAD_BUF, O_RDONLY) == -EFAULT);
}

/* ---- smpix only: the claims Linux does not share ------------------------------------------- */

/* Root on Linux may open these for writing (and gets EIO); smpix refuses every writer at open. */
static void t_readonly_eacces(void)
{
	static const char *const ro[] = { "/proc/cpuinfo", "/proc/meminfo", "/proc/uptime",
					  "/proc/interrupts", "/proc/mounts", "/proc/syscalls",
					  "/proc/self/stat", "/proc/self/status", "/proc/self/cmdline" };

	for (unsigned i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
		CHECK(SYS2(__NR_open, ro[i], O_WRONLY) == -EACCES);
		CHECK(SYS2(__NR_open, ro[i], O_RDWR) == -EACCES);
		CHECK(gt_write_file(ro[i], "0") == -EACCES);
	}
}

/* The acquisitions of procfs's BKL site in function fn, from /proc/bkl's text, or -1. */
static long long procfs_site(const char *bkl, const char *fn)
{
	const char *line = bkl;

	while (line && *line) {
		const char *end = strchr(line, '\n');

		const char *site = gt_strstr(line, "fs/proc/procfs.c:");

		if (site && (!end || site < end) && gt_strstr(site, fn) && (!end || gt_strstr(site, fn) < end)) {
			const char *v = line;

			skip_spaces(&v);
			return number(&v);
		}
		line = end ? end + 1 : NULL;
	}
	return -1;
}

static void t_bkl(void)
{
	long long before, after;

	CHECK(gt_read_file("/proc/bkl", text, sizeof(text)) > 0);
	CHECK(starts_with(text, "owner: "));
	/* We are reading it under the BKL ourselves: the owner is this process. */
	{
		char want[48];

		snprintf(want, sizeof(want), "owner: pid %ld (proctest)", SYS0(__NR_getpid));
		CHECK(starts_with(text, want));
	}
	CHECK(gt_strstr(text, "\nsites: "));
	CHECK(gt_strstr(text, "acquired"));
	before = procfs_site(text, "proc_file_read");
	CHECK(before >= 1);             /* this very read, at least */
	for (int i = 0; i < 5; i++)
		gt_read_file("/proc/uptime", text, sizeof(text));
	CHECK(gt_read_file("/proc/bkl", text, sizeof(text)) > 0);
	after = procfs_site(text, "proc_file_read");
	CHECK(after >= before + 6);     /* five uptime reads and this one (each read() call counts) */

	/* "0" resets every site: afterwards only the read that shows it has counted. */
	CHECK(gt_write_file("/proc/bkl", "0\n") == 2);
	CHECK(gt_read_file("/proc/bkl", text, sizeof(text)) > 0);
	CHECK(procfs_site(text, "proc_file_read") >= 1 && procfs_site(text, "proc_file_read") <= 2);
	/* As a shell's "echo 0 > /proc/bkl" opens it: O_CREAT and O_TRUNC change nothing. */
	{
		int fd = (int)SYS3(__NR_open, "/proc/bkl", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		CHECK(fd >= 0);
		CHECK(gt_write(fd, "0\n", 2) == 2);
		gt_close(fd);
	}
	CHECK(gt_write_file("/proc/bkl", "1") == -EINVAL);
	CHECK(gt_write_file("/proc/bkl", "reset") == -EINVAL);
	CHECK(gt_write_file("/proc/bkl", "0 1") == -EINVAL);
}

/* /proc/sys runs outside the BKL: reading it leaves the procfs site alone. */
static void t_sys_outside_bkl(void)
{
	char val[32];

	CHECK(gt_write_file("/proc/bkl", "0") == 1);
	for (int i = 0; i < 10; i++)
		CHECK(gt_read_file("/proc/sys/kernel/ioctl_mode", val, sizeof(val)) > 0);
	CHECK(gt_write_file("/proc/sys/kernel/ioctl_mode", val) == (long)strlen(val));     /* unchanged */
	CHECK(gt_read_file("/proc/bkl", text, sizeof(text)) > 0);
	CHECK(procfs_site(text, "proc_file_read") >= 1 && procfs_site(text, "proc_file_read") <= 2);
	/* The reset ran inside the write site's hold; the knob's write added nothing to it. */
	CHECK(procfs_site(text, "proc_file_write") == 0);
}

static void t_ioctl_mode_knob(void)
{
	const char *k = "/proc/sys/kernel/ioctl_mode";
	char val[32], first[32];

	CHECK(gt_read_file(k, first, sizeof(first)) > 0);
	printf("proctest: ioctl_mode %s", first);       /* the boot word's value, checked by the harness */
	CHECK(gt_write_file(k, "serialized") == 10);
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, "serialized\n") == 0);
	CHECK(gt_write_file(k, "unlocked\n") == 9);
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, "unlocked\n") == 0);
	CHECK(gt_write_file(k, "bogus") == -EINVAL);
	CHECK(gt_write_file(k, "Auto") == -EINVAL);
	CHECK(gt_write_file(k, "auto extra") == -EINVAL);
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, "unlocked\n") == 0);
	CHECK(gt_write_file(k, first) == (long)strlen(first));    /* put it back */
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, first) == 0);
}

static void t_spin_report_knob(void)
{
	const char *k = "/proc/sys/kernel/bkl_spin_report_ms";
	char val[32], first[32];
	const char *v = first;
	long long ms;

	CHECK(gt_read_file(k, first, sizeof(first)) > 0);
	ms = number(&v);
	CHECK(ms > 0 && strcmp(v, "\n") == 0);
	CHECK(gt_write_file(k, "250") == 3);
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, "250\n") == 0);
	CHECK(gt_write_file(k, "0") == -EINVAL);
	CHECK(gt_write_file(k, "-5") == -EINVAL);
	CHECK(gt_write_file(k, "12abc") == -EINVAL);
	CHECK(gt_write_file(k, "99999999999") == -EINVAL);
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, "250\n") == 0);
	CHECK(gt_write_file(k, first) > 0);
	CHECK(gt_read_file(k, val, sizeof(val)) > 0 && strcmp(val, first) == 0);
}

/* One line per call: "nr name nargs flags calls"; the count moves as calls are made. */
static long long syscall_calls(const char *table, const char *name)
{
	char key[32];
	const char *s;

	snprintf(key, sizeof(key), " %s ", name);
	s = gt_strstr(table, key);
	if (!s)
		return -1;
	s += strlen(key);
	skip_spaces(&s);
	number(&s);                     /* nargs */
	skip_spaces(&s);
	while (*s && *s != ' ')
		s++;                    /* flags */
	skip_spaces(&s);
	return number(&s);
}

static void t_syscalls(void)
{
	long long before, after;
	const char *reboot;

	CHECK(gt_read_file("/proc/syscalls", text, sizeof(text)) > 0);
	before = syscall_calls(text, "getppid");
	CHECK(before >= 0);
	for (int i = 0; i < 25; i++)
		SYS0(__NR_getppid);
	CHECK(gt_read_file("/proc/syscalls", text, sizeof(text)) > 0);
	after = syscall_calls(text, "getppid");
	CHECK(after >= before + 25);
	reboot = gt_strstr(text, " reboot ");
	CHECK(reboot && gt_strstr(reboot, "bkl") && gt_strstr(reboot, "bkl") < strchr(reboot, '\n'));
	CHECK(gt_strstr(text, " pipe2 "));
}

static void t_pid_dir_listing(void)
{
	static char dents[4096];
	int fd = (int)SYS2(__NR_open, "/proc/self", O_RDONLY | O_DIRECTORY), found = 0;
	long n;

	CHECK(fd >= 0);
	while ((n = SYS3(__NR_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(dents + off);

			found += !strcmp(d->d_name, "stat") + !strcmp(d->d_name, "status") +
				 !strcmp(d->d_name, "cmdline") + !strcmp(d->d_name, "exe");
			off += d->d_reclen;
		}
	}
	gt_close(fd);
	CHECK(found == 4);
}

/* Every CPU reading /proc at once: the BKL serialises the reads; nothing breaks. */
static void t_readers_on_all_cpus(void)
{
	int pids[4], status;

	for (int i = 0; i < 4; i++) {
		pids[i] = gt_fork();
		if (pids[i] == 0) {
			uint32_t mask = 1u << i;
			static char b[16384];

			SYS3(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
			for (int n = 0; n < 40; n++)
				if (gt_read_file(n & 1 ? "/proc/bkl" : "/proc/cpuinfo", b, sizeof(b)) <= 0)
					gt_exit(1);
			gt_exit(0);
		}
		CHECK(pids[i] > 0);
	}
	for (int i = 0; i < 4; i++) {
		status = gt_wait(pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

/* ---- leaks: procfs makes an inode per lookup and a buffer per open; all must go ---------- */

static struct counts before;

static void read_everything(void)
{
	static const char *const files[] = { "/proc/cpuinfo", "/proc/meminfo", "/proc/uptime",
					     "/proc/interrupts", "/proc/mounts", "/proc/bkl",
					     "/proc/syscalls", "/proc/self/stat", "/proc/self/status",
					     "/proc/self/cmdline", "/proc/sys/kernel/ioctl_mode",
					     "/proc/sys/kernel/bkl_spin_report_ms",
					     "/proc/sys/kernel/bkl_timing" };
	char link[64];

	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		gt_read_file(files[i], text, sizeof(text));
	SYS3(__NR_readlink, "/proc/self/exe", link, sizeof(link));
	SYS2(__NR_open, "/proc/cpuinfo", O_WRONLY);     /* refused: must leave nothing behind */
}

static void t_no_leaks(void)
{
	struct counts mid, after;

	CHECK(gt_read_counts(&mid) == 0);
	CHECK(mid.inodes == before.inodes && mid.files == before.files);
	CHECK(mid.heap_objects <= before.heap_objects);
	for (int i = 0; i < 3; i++)
		read_everything();
	t_readdir();
	t_pid_stat();                   /* a child's directory, found and gone */
	CHECK(gt_read_counts(&after) == 0);
	CHECK(after.inodes == mid.inodes && after.files == mid.files);
	if (after.heap_objects != mid.heap_objects)
		printf("proctest: heap objects %ld, then %ld\n", mid.heap_objects, after.heap_objects);
	CHECK(after.heap_objects == mid.heap_objects);
}

int main(int argc, char **argv)
{
	prog_argv0 = argc > 0 ? argv[0] : "proctest";
	gt_start("proctest");
	proc_mounted = gt_exists("/proc/cpuinfo");
	proc_ours = gt_proc_is_ours();
	gt_run("cpuinfo", t_cpuinfo);
	if (!ON_LINUX && gt_read_counts(&before) < 0)
		printf("proctest: cannot read /dev/kcounts\n");
	gt_run("meminfo", t_meminfo);
	gt_run("uptime", t_uptime);
	gt_run("interrupts", t_interrupts);
	gt_run("mounts", t_mounts);
	gt_run("self", t_self);
	gt_run("pid_stat", t_pid_stat);
	gt_run("pid_status", t_pid_status);
	gt_run("pid_signal_sets", t_pid_signal_sets);
	gt_run("pid_cmdline_exe", t_pid_cmdline_exe);
	gt_run("readdir", t_readdir);
	gt_run("bad_input", t_bad_input);
	if (!ON_LINUX) {
		gt_run("readonly_eacces", t_readonly_eacces);
		gt_run("bkl", t_bkl);
		gt_run("sys_outside_bkl", t_sys_outside_bkl);
		gt_run("ioctl_mode_knob", t_ioctl_mode_knob);
		gt_run("spin_report_knob", t_spin_report_knob);
		gt_run("syscalls", t_syscalls);
		gt_run("pid_dir_listing", t_pid_dir_listing);
		gt_run("readers_on_all_cpus", t_readers_on_all_cpus);
		gt_run("no_leaks", t_no_leaks);
	}
	gt_finish();
}
