/*
 * top's sampling: one look at /proc, in Linux's formats (man 5 proc), so the same program reads a
 * Linux system too (where smpix's extra columns and status lines are simply absent, and read as 0).
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "top.h"

/* The whole of a small file, NUL-terminated: its length, or -1. */
static int read_text(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n = 0, r;

	if (fd < 0)
		return -1;
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

/* "cpu  1 2 3 ..." or "cpu3 1 2 3 ...": the numbers after the name; missing columns stay 0. */
static void parse_cpu_line(const char *p, struct cpu_ticks *t)
{
	char *end;

	memset(t, 0, sizeof(*t));
	while (*p && !isspace((unsigned char)*p))
		p++;                            /* the name */
	for (int c = 0; c < NR_COLUMNS; c++) {
		t->col[c] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
}

static int read_cpus(struct sample *s)
{
	static char buf[8192];
	char *line = buf, *next;

	if (read_text("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	s->ncpus = 0;
	for (; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (strncmp(line, "cpu ", 4) == 0)
			parse_cpu_line(line, &s->all);
		else if (strncmp(line, "cpu", 3) == 0 && isdigit((unsigned char)line[3]) && s->ncpus < TOP_MAX_CPUS)
			parse_cpu_line(line, &s->cpu[s->ncpus++]);
	}
	return 0;
}

/* The number after "Name:" in a /proc file of "Name: value" lines, or 0. */
static unsigned long long field_after(const char *text, const char *name, char **rest)
{
	const char *p = strstr(text, name);
	static char *unused;

	if (!rest)
		rest = &unused;
	if (!p) {
		*rest = NULL;
		return 0;
	}
	return strtoull(p + strlen(name), rest, 10);
}

static void read_memory_and_load(struct sample *s)
{
	char buf[1024];

	s->mem_total_kb = s->mem_free_kb = 0;
	if (read_text("/proc/meminfo", buf, sizeof(buf)) > 0) {
		s->mem_total_kb = field_after(buf, "MemTotal:", NULL);
		s->mem_free_kb = field_after(buf, "MemFree:", NULL);
	}
	if (read_text("/proc/loadavg", s->loadavg, sizeof(s->loadavg)) > 0)
		s->loadavg[strcspn(s->loadavg, "\n")] = '\0';
	else
		strcpy(s->loadavg, "?");
	s->uptime = read_text("/proc/uptime", buf, sizeof(buf)) > 0 ? strtod(buf, NULL) : 0;
}

/*
 * ".../stat": "pid (comm) state ppid ...". comm may hold blanks and parentheses, so it ends at the
 * last ')'. Fields 14 and 15 are utime and stime, field 39 the processor. 0, or -1 if it is gone.
 */
static int parse_stat(const char *dir, struct task_sample *t)
{
	char path[80], buf[1024], *open_paren, *close_paren, *p;
	unsigned long long field[53] = { 0 };

	snprintf(path, sizeof(path), "%s/stat", dir);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;                      /* it exited meanwhile */
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren || !close_paren[1])
		return -1;
	*close_paren = '\0';
	snprintf(t->comm, sizeof(t->comm), "%s", open_paren + 1);
	p = close_paren + 2;
	t->state = *p++;
	for (int n = 4; n <= 52 && *p; n++)
		field[n] = strtoull(p, &p, 10);
	t->cpu_ticks = field[14] + field[15];
	t->cpu = (int)field[39];
	return 0;
}

/* "BKLTime:\t12.340000 s" in .../status, in microseconds: smpix's line (docs/time.md); 0 without it. */
static unsigned long long parse_bkl_us(const char *dir)
{
	char path[80], buf[2048], *rest;
	unsigned long long us;

	snprintf(path, sizeof(path), "%s/status", dir);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return 0;
	us = field_after(buf, "\nBKLTime:", &rest) * 1000000ull;
	if (rest && *rest == '.')
		us += strtoull(rest + 1, NULL, 10);     /* always six digits */
	return us;
}

/* One process or thread, whose /proc directory is dir, into the next free slot of s. */
static void add_task(struct sample *s, const char *dir, int pid, int tid)
{
	struct task_sample *t = &s->task[s->ntasks];

	if (s->ntasks >= TOP_MAX_TASKS || parse_stat(dir, t) < 0)
		return;
	t->stat_when = top_now();
	t->pid = pid;
	t->tid = tid;
	t->bkl_us = parse_bkl_us(dir);
	t->status_when = top_now();
	s->ntasks++;
}

static void add_threads(struct sample *s, int pid)
{
	char dir[48], tdir[80];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0])) {
			snprintf(tdir, sizeof(tdir), "%s/%s", dir, e->d_name);
			add_task(s, tdir, pid, atoi(e->d_name));
		}
	closedir(d);
}

static void read_tasks(struct sample *s, bool threads)
{
	struct dirent *e;
	char dir[48];
	DIR *d;

	s->ntasks = 0;
	if (!(d = opendir("/proc")))
		return;
	while ((e = readdir(d))) {
		int pid = atoi(e->d_name);

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (threads) {
			add_threads(s, pid);
		} else {
			snprintf(dir, sizeof(dir), "/proc/%d", pid);
			add_task(s, dir, pid, 0);
		}
	}
	closedir(d);
}

double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int sample_take(struct sample *s, bool threads)
{
	s->when = top_now();
	if (read_cpus(s) < 0)
		return -1;
	read_memory_and_load(s);
	read_tasks(s, threads);
	return 0;
}
