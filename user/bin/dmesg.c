/* dmesg [-c]: the kernel log (syslog(2) READ_ALL; -c clears it after). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int clear = argc == 2 && strcmp(argv[1], "-c") == 0;
	int size, n;
	char *buf;

	if (argc > 1 + clear) {
		fprintf(stderr, "usage: dmesg [-c]\n");
		return 2;
	}
	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size <= 0 || !(buf = malloc(size))) {
		perror("dmesg: syslog");
		return 1;
	}
	n = klogctl(clear ? SYSLOG_ACTION_READ_CLEAR : SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0) {
		perror("dmesg: syslog");
		return 1;
	}
	return write(1, buf, n) == n ? 0 : 1;
}
