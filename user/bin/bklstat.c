/*
 * bklstat [-c | -t | -b] [-n N] [-r]: the Big Kernel Lock's statistics from
 * /proc/bkl, one line per lock_kernel() site, sorted by contention (-c, the
 * default) or by hold time (-t); -n shows only the top N; -r resets the
 * counters (writes 0 to /proc/bkl).
 *
 * -b: who made whom wait, from /proc/bkl_blame: for each site that waited
 * and each site that held the lock meanwhile, the contended acquisitions and
 * the time waited; then the holding site others waited for longest, the one
 * to push the BKL out of first.
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
static unsigned long long us(unsigned long long cycles, unsigned long long hz);

#define HOLDERS_MAX 128

/* bklstat -b: /proc/bkl_blame, its lines as they are (most wait first), and the verdict. */
static int blame(int top)
{
	struct { char where[160]; unsigned long long cycles; } holders[HOLDERS_MAX];
	unsigned long long hz = 0, total = 0, handover = 0;
	int nholders = 0, shown = 0, best = -1;
	char line[512];
	FILE *f = fopen("/proc/bkl_blame", "r");

	if (!f) {
		fprintf(stderr, "bklstat: /proc/bkl_blame: %s\n", strerror(errno));
		return 1;
	}
	printf("%10s %12s  %-40s  %s\n", "contended", "wait_us", "waiting at", "while held by");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long count, cycles;
		char *p = line, *arrow, *holder, *nl;
		int i;

		if (strncmp(line, "tsc_hz:", 7) == 0)
			hz = strtoull(line + 7, NULL, 10);
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9' || !(arrow = strstr(p, "  <-  ")))
			continue;
		count = strtoull(p, &p, 10);
		cycles = strtoull(p, &p, 10);
		while (*p == ' ')
			p++;
		*arrow = 0;
		holder = arrow + 6;
		if ((nl = strchr(holder, '\n')))
			*nl = 0;
		if (top < 0 || shown < top) {
			printf("%10llu %12llu  %-40s  %s\n", count, us(cycles, hz), p,
			       strncmp(holder, "-:0 ", 4) == 0 ? "(nobody: handing over)" : holder);
			shown++;
		}
		total += cycles;
		if (strncmp(holder, "-:0 ", 4) == 0) {
			handover += cycles;
			continue;
		}
		for (i = 0; i < nholders && strcmp(holders[i].where, holder) != 0; i++)
			;
		if (i == nholders && nholders < HOLDERS_MAX) {
			strlcpy(holders[i].where, holder, sizeof(holders[i].where));
			holders[i].cycles = 0;
			nholders++;
		}
		if (i < nholders)
			holders[i].cycles += cycles;
	}
	fclose(f);
	for (int i = 0; i < nholders; i++)
		if (best < 0 || holders[i].cycles > holders[best].cycles)
			best = i;
	if (best < 0) {
		printf("bklstat: no contended acquisition since the counters were reset\n");
		return 0;
	}
	printf("bklstat: others waited %llu us (%llu%% of all BKL waiting) while the BKL was held at %s:"
	       " push the BKL out of it first\n", us(holders[best].cycles, hz),
	       total ? holders[best].cycles * 100 / total : 0, holders[best].where);
	if (handover)
		printf("bklstat: %llu us (%llu%%) passed with the lock free, handed to a CPU not yet spinning on it\n",
		       us(handover, hz), total ? handover * 100 / total : 0);
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
	int c, n = 0, top = -1, i, by_blame = 0;
	char line[512];
	FILE *f;

	while ((c = getopt(argc, argv, "ctbn:r")) != -1) {
		if (c == 'c')
			by_hold = 0;
		else if (c == 'b')
			by_blame = 1;
		else if (c == 't')
			by_hold = 1;
		else if (c == 'n')
			top = atoi(optarg);
		else if (c == 'r')
			return reset();
		else {
			fprintf(stderr, "usage: bklstat [-c | -t | -b] [-n N] [-r]\n");
			return 2;
		}
	}
	if (by_blame)
		return blame(top);
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
