/*
 * bklstat [-c | -t] [-n N] [-r]: the Big Kernel Lock's statistics from
 * /proc/bkl, one line per lock_kernel() site, sorted by contention (-c, the
 * default) or by hold time (-t); -n shows only the top N; -r resets the
 * counters (writes 0 to /proc/bkl).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct site {
	unsigned long long acquired, contended, reacquired, wait, wait_max, hold, hold_max;
	char where[160];
};

static int by_hold;

static int compare(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	unsigned long long kx = by_hold ? x->hold : x->contended, ky = by_hold ? y->hold : y->contended;

	if (kx != ky)
		return kx < ky ? 1 : -1;
	return x->acquired < y->acquired ? 1 : x->acquired > y->acquired ? -1 : 0;
}

static int reset(void)
{
	int fd = open("/proc/bkl", O_WRONLY);

	if (fd < 0 || write(fd, "0", 1) != 1) {
		fprintf(stderr, "bklstat: /proc/bkl: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	printf("bklstat: counters reset\n");
	return 0;
}

/* "cycles" as microseconds at the TSC's rate. */
static unsigned long long us(unsigned long long cycles, unsigned long long hz)
{
	return hz ? cycles / (hz / 1000000 ? hz / 1000000 : 1) : 0;
}

int main(int argc, char **argv)
{
	struct site *sites = NULL;
	unsigned long long hz = 0;
	int c, n = 0, top = -1, i;
	char line[512];
	FILE *f;

	while ((c = getopt(argc, argv, "ctn:r")) != -1) {
		if (c == 'c')
			by_hold = 0;
		else if (c == 't')
			by_hold = 1;
		else if (c == 'n')
			top = atoi(optarg);
		else if (c == 'r')
			return reset();
		else {
			fprintf(stderr, "usage: bklstat [-c | -t] [-n N] [-r]\n");
			return 2;
		}
	}
	f = fopen("/proc/bkl", "r");
	if (!f) {
		fprintf(stderr, "bklstat: /proc/bkl: %s\n", strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct site s;
		char *p = line, *nl;

		if (strncmp(line, "tsc_hz:", 7) == 0) {
			hz = strtoull(line + 7, NULL, 10);
			continue;
		}
		if (strncmp(line, "owner:", 6) == 0 || strncmp(line, "waiting:", 8) == 0) {
			fputs(line, stdout);
			continue;
		}
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			continue;               /* the other header lines */
		s.acquired = strtoull(p, &p, 10);
		s.contended = strtoull(p, &p, 10);
		s.reacquired = strtoull(p, &p, 10);
		s.wait = strtoull(p, &p, 10);
		s.wait_max = strtoull(p, &p, 10);
		s.hold = strtoull(p, &p, 10);
		s.hold_max = strtoull(p, &p, 10);
		while (*p == ' ')
			p++;
		if ((nl = strchr(p, '\n')))
			*nl = '\0';
		strlcpy(s.where, p, sizeof(s.where));
		sites = realloc(sites, (n + 1) * sizeof(s));
		sites[n++] = s;
	}
	fclose(f);
	qsort(sites, n, sizeof(struct site), compare);
	printf("%10s %10s %12s %12s  %s   (sorted by %s; times in us)\n", "acquired", "contended",
	       "wait_us", "hold_us", "site", by_hold ? "hold time" : "contention");
	for (i = 0; i < n && (top < 0 || i < top); i++)
		printf("%10llu %10llu %12llu %12llu  %s\n", sites[i].acquired, sites[i].contended,
		       us(sites[i].wait, hz), us(sites[i].hold, hz), sites[i].where);
	return 0;
}
