/*
 * ps: every process, from /proc/PID/stat (Linux's format, man 5 proc);
 * ps -L: every thread of every process too, from /proc/PID/task/TID/stat,
 * with its thread id in the LWP column, as Linux's ps -L.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USER_HZ 100

/*
 * "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime ..."
 * of process pid, or with tid (not NULL) of its thread tid.
 */
static int show(const char *pid, const char *tid)
{
	char path[64], buf[512], *comm, *close_paren;
	int fd, n, ppid, pgrp, sid;
	unsigned long utime, stime;
	char state;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	else
		snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;                       /* it exited meanwhile */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* comm may hold blanks and parentheses: it ends at the last ')' */
	comm = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!comm || !close_paren)
		return 0;
	*close_paren = '\0';
	comm++;
	char *p = close_paren + 2;
	state = *p;
	p += 2;
	ppid = strtol(p, &p, 10);
	pgrp = strtol(p, &p, 10);
	sid = strtol(p, &p, 10);
	for (int skip = 0; skip < 6; skip++)        /* tty_nr tpgid flags minflt cminflt majflt */
		strtol(p, &p, 10);
	strtol(p, &p, 10);                          /* cmajflt */
	utime = strtoul(p, &p, 10);
	stime = strtoul(p, &p, 10);
	if (tid)
		printf("%5s %5s ", pid, tid);
	else
		printf("%5s ", pid);
	printf("%5d %5d %5d %c %4lu:%02lu %s\n", ppid, pgrp, sid, state,
	       (utime + stime) / USER_HZ / 60, (utime + stime) / USER_HZ % 60, comm);
	return 1;
}

static int by_number(const void *a, const void *b) { return atoi(*(char **)a) - atoi(*(char **)b); }

/* The numeric names in directory path, sorted, into names (at most max): how many. */
static int numbers_in(const char *path, char **names, int max)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(path);

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max)
		if (isdigit(e->d_name[0]))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(char *), by_number);
	return n;
}

/* ps -L: a line per thread of process pid. */
static void show_threads(const char *pid)
{
	char path[64], *tids[256];
	int n;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	n = numbers_in(path, tids, 256);
	for (int i = 0; i < n; i++) {
		show(pid, tids[i]);
		free(tids[i]);
	}
}

int main(int argc, char **argv)
{
	static char *pids[1024];
	int threads = argc == 2 && strcmp(argv[1], "-L") == 0;
	int n, i;

	if (argc > 2 || (argc == 2 && !threads)) {
		fprintf(stderr, "usage: ps [-L]\n");
		return 2;
	}
	n = numbers_in("/proc", pids, 1024);
	if (n < 0) {
		perror("ps: /proc");
		return 1;
	}
	printf(threads ? "  PID   LWP  PPID  PGID   SID S   TIME CMD\n" : "  PID  PPID  PGID   SID S   TIME CMD\n");
	for (i = 0; i < n; i++) {
		if (threads)
			show_threads(pids[i]);
		else
			show(pids[i], NULL);
	}
	return 0;
}
