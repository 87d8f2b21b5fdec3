/* time, gettimeofday, clock_gettime, nanosleep and times, through glibc. */
#include <stdio.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

int main(void)
{
	struct timespec a, b, nap = { 0, 200 * 1000 * 1000 };
	struct timeval tv;
	struct tms tm;
	time_t t = time(NULL);
	long ms;

	gettimeofday(&tv, NULL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	printf("time: slept %s\n", ms >= 200 && ms < 1000 ? "200 ms or a little more" : "the wrong time");
	printf("time: time() and gettimeofday() agree: %s\n", tv.tv_sec - t <= 1 && tv.tv_sec >= t ? "yes" : "no");
	printf("time: times() %s\n", times(&tm) != (clock_t)-1 ? "ok" : "failed");
	return ms >= 200 && ms < 1000 ? 0 : 1;
}
