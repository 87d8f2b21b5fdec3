/* ps: every process, from /proc/PID/stat (Linux's format, man 5 proc). */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USER_HZ 100

/* "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime ..." */
static int show(const char *pid)
{
	char path[64], buf[512], *comm, *close_paren;
	int fd, n, ppid, pgrp, sid;
	unsigned long utime, stime;
	char state;

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
	printf("%5s %5d %5d %5d %c %4lu:%02lu %s\n", pid, ppid, pgrp, sid, state,
	       (utime + stime) / USER_HZ / 60, (utime + stime) / USER_HZ % 60, comm);
	return 1;
}

static int by_number(const void *a, const void *b) { return atoi(*(char **)a) - atoi(*(char **)b); }

int main(int argc, char **argv)
{
	char *pids[1024];
	struct dirent *e;
	int n = 0, i;
	DIR *d;

	if (argc > 1) {
		fprintf(stderr, "usage: ps\n");
		return 2;
	}
	d = opendir("/proc");
	if (!d) {
		perror("ps: /proc");
		return 1;
	}
	while ((e = readdir(d)) && n < 1024)
		if (isdigit(e->d_name[0]))
			pids[n++] = strdup(e->d_name);
	closedir(d);
	qsort(pids, n, sizeof(char *), by_number);
	printf("  PID  PPID  PGID   SID S   TIME CMD\n");
	for (i = 0; i < n; i++)
		show(pids[i]);
	return 0;
}
