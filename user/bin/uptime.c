/* uptime: how long since boot, and how many processes (from sysinfo). */
#include <stdio.h>
#include <sys/sysinfo.h>

int main(int argc, char **argv)
{
	struct sysinfo si;
	long up;

	if (argc > 1) {
		fprintf(stderr, "usage: uptime\n");
		return 2;
	}
	if (sysinfo(&si) < 0) {
		perror("uptime: sysinfo");
		return 1;
	}
	up = si.uptime;
	printf("up %ld day%s, %02ld:%02ld:%02ld, %u processes\n", up / 86400, up / 86400 == 1 ? "" : "s",
	       up / 3600 % 24, up / 60 % 60, up % 60, si.procs);
	return 0;
}
