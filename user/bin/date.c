/* date [-u] [+%s]: the wall-clock time (UTC) from clock_gettime(CLOCK_REALTIME); +%s seconds since 1970. */
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct timespec ts;
	struct tm tm;
	time_t t;
	int i, seconds = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "+%s") == 0)
			seconds = 1;
		else if (strcmp(argv[i], "-u") != 0) {
			fprintf(stderr, "usage: date [-u] [+%%s]\n");
			return 2;
		}
	}
	if (clock_gettime(CLOCK_REALTIME, &ts) < 0) {
		perror("date: clock_gettime");
		return 1;
	}
	t = ts.tv_sec;
	if (seconds) {
		printf("%ld\n", (long)t);
		return 0;
	}
	gmtime_r(&t, &tm);
	printf("%s %s %2d %02d:%02d:%02d UTC %d\n", days[tm.tm_wday], months[tm.tm_mon], tm.tm_mday,
	       tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
	return 0;
}
