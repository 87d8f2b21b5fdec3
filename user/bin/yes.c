/* yes [STRING...]: the STRINGs (or "y") on a line, forever, until the reader goes away. */
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	size_t len = 0, n;
	int i;

	if (argc < 2) {
		memcpy(buf, "y\n", 2);
		len = 2;
	}
	for (i = 1; i < argc; i++) {
		n = strlen(argv[i]);
		if (len + n + 1 > sizeof(buf) / 2)
			n = sizeof(buf) / 2 - len - 1;
		memcpy(buf + len, argv[i], n);
		len += n;
		buf[len++] = i < argc - 1 ? ' ' : '\n';
	}
	/* Many lines per write: a pipe's reader wakes once per buffer, not per line. */
	for (n = len; n + len <= sizeof(buf); n += len)
		memcpy(buf + n, buf, len);
	for (;;)
		if (write(1, buf, n) < 0)
			return 1;
}
