/* sleep SECONDS: pause (whole seconds, or a fraction like 0.5). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec ts;
	char *end;
	long frac = 0, scale = 100000000;

	if (argc != 2 || !argv[1][0]) {
		fprintf(stderr, "usage: sleep SECONDS\n");
		return 2;
	}
	ts.tv_sec = strtol(argv[1], &end, 10);
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9' && scale; end++, scale /= 10)
			frac += (*end - '0') * scale;
	if (*end || ts.tv_sec < 0) {
		fprintf(stderr, "usage: sleep SECONDS\n");
		return 2;
	}
	ts.tv_nsec = frac;
	return nanosleep(&ts, NULL) < 0;
}
