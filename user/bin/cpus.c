/*
 * cpus: the online CPUs and their local APIC ids, from /proc/cpuinfo
 * ("processor" and "apicid" lines, Linux's format); without procfs, the CPU
 * numbers from sched_getaffinity.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int from_cpuinfo(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], *colon;
	int cpu = -1, n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		if (strncmp(line, "processor", 9) == 0)
			cpu = atoi(colon + 1);
		else if (strncmp(line, "apicid", 6) == 0) {
			printf("cpu %d: apic id %d\n", cpu, atoi(colon + 1));
			n++;
		}
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	unsigned mask[8] = { 0 };
	int n, i;

	if (argc > 1) {
		fprintf(stderr, "usage: cpus\n");
		return 2;
	}
	n = from_cpuinfo();
	if (n < 0) {
		if (sched_getaffinity(0, sizeof(mask), mask) < 0) {
			perror("cpus: sched_getaffinity");
			return 1;
		}
		n = 0;
		for (i = 0; i < 256; i++)
			if (mask[i / 32] & (1u << (i % 32))) {
				printf("cpu %d: apic id unknown (no /proc/cpuinfo)\n", i);
				n++;
			}
	}
	printf("%d CPU%s online\n", n, n == 1 ? "" : "s");
	return n > 0 ? 0 : 1;
}
