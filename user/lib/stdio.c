/*
 * A small stdio. Output is not buffered across calls: each printf() formats
 * into a local buffer and writes it with as few write()s as fit, so nothing
 * waits in memory when a program forks, execs or dies, and a line from one
 * process is not cut in half by another's. Input through a FILE is buffered.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE std_files[3] = { { .fd = 0 }, { .fd = 1 }, { .fd = 2 } };
FILE *stdin = &std_files[0], *stdout = &std_files[1], *stderr = &std_files[2];

/* Write all of buf, or fail: a short write to a pipe or the console is retried. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= w;
	}
	return 0;
}

/* The format engine's sink: fill a buffer, write it out when it is full. */
struct fd_sink {
	int fd;
	int len, failed;
	char buf[512];
};

static void fd_sink_flush(struct fd_sink *s)
{
	if (s->len && write_all(s->fd, s->buf, s->len) < 0)
		s->failed = 1;
	s->len = 0;
}

static void fd_sink_put(void *ctx, char c)
{
	struct fd_sink *s = ctx;

	if (s->len == (int)sizeof(s->buf))
		fd_sink_flush(s);
	s->buf[s->len++] = c;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	struct fd_sink s;
	int n;

	s.fd = fd;
	s.len = s.failed = 0;
	n = vformat(fd_sink_put, &s, fmt, ap);
	fd_sink_flush(&s);
	return s.failed ? -1 : n;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	int n = vdprintf(f->fd, fmt, ap);

	if (n < 0)
		f->error = 1;
	return n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

/* sprintf has no size: the caller promised room, as in C. */
int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, (size_t)0x7fffffff, fmt, ap);
	va_end(ap);
	return n;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	if (size == 0 || n == 0)
		return 0;
	if (write_all(f->fd, p, size * n) < 0) {
		f->error = 1;
		return 0;
	}
	return n;
}

int fputs(const char *s, FILE *f) { return fwrite(s, strlen(s), 1, f) == 1 ? 0 : EOF; }
int fputc(int c, FILE *f)
{
	char ch = (char)c;

	return fwrite(&ch, 1, 1, f) == 1 ? (unsigned char)c : EOF;
}
int putchar(int c) { return fputc(c, stdout); }

int puts(const char *s)
{
	size_t n = strlen(s);
	char *line = malloc(n + 1);
	int r;

	if (!line)
		return fputs(s, stdout) == 0 && fputc('\n', stdout) != EOF ? 0 : EOF;
	memcpy(line, s, n);
	line[n] = '\n';                 /* one write for the line and its newline */
	r = fwrite(line, n + 1, 1, stdout) == 1 ? 0 : EOF;
	free(line);
	return r;
}

int fflush(FILE *f) { return 0; }   /* nothing is ever held back */

/* ---- input ---- */

static int fill(FILE *f)
{
	ssize_t n;

	do
		n = read(f->fd, f->buf, sizeof(f->buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n == 0)
			f->eof = 1;
		else
			f->error = 1;
		return EOF;
	}
	f->pos = 0;
	f->len = n;
	return 0;
}

int fgetc(FILE *f)
{
	if (f->pos == f->len && fill(f) == EOF)
		return EOF;
	return (unsigned char)f->buf[f->pos++];
}

int getchar(void) { return fgetc(stdin); }

char *fgets(char *buf, int size, FILE *f)
{
	int i = 0, c = 0;

	if (size <= 0)
		return NULL;
	while (i < size - 1 && c != '\n') {
		c = fgetc(f);
		if (c == EOF)
			break;
		buf[i++] = (char)c;
	}
	if (i == 0)
		return NULL;
	buf[i] = '\0';
	return buf;
}

/*
 * getline(3): the next line of f, of any length, newline included (the last
 * line may lack one), NUL-terminated in *line, which is grown with realloc()
 * and its size kept in *cap (both may start as NULL and 0). The line's
 * length, which counts any NUL bytes in it; -1 at the end of the input, or
 * with errno ENOMEM if the line does not fit in memory.
 */
ssize_t getline(char **line, size_t *cap, FILE *f)
{
	size_t len = 0;
	int c;

	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > *cap) {
			size_t more = *cap ? *cap * 2 : 128;
			char *p = realloc(*line, more);

			if (!p) {
				errno = ENOMEM;
				return -1;
			}
			*line = p;
			*cap = more;
		}
		(*line)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0)
		return -1;
	(*line)[len] = '\0';
	return (ssize_t)len;
}

size_t fread(void *p, size_t size, size_t n, FILE *f)
{
	char *out = p;
	size_t want = size * n, got = 0;

	while (got < want) {
		int c = fgetc(f);

		if (c == EOF)
			break;
		out[got++] = (char)c;
	}
	return size ? got / size : 0;
}

int feof(FILE *f) { return f->eof; }
int ferror(FILE *f) { return f->error; }
int fileno(FILE *f) { return f->fd; }

FILE *fdopen(int fd, const char *mode)
{
	FILE *f = calloc(1, sizeof(*f));

	if (f)
		f->fd = fd;
	return f;
}

/* Modes "r", "w", "a", with an optional "+". */
FILE *fopen(const char *path, const char *mode)
{
	int flags, fd;
	FILE *f;

	if (mode[0] == 'r')
		flags = strchr(mode, '+') ? O_RDWR : O_RDONLY;
	else if (mode[0] == 'w')
		flags = (strchr(mode, '+') ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC;
	else if (mode[0] == 'a')
		flags = (strchr(mode, '+') ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND;
	else {
		errno = EINVAL;
		return NULL;
	}
	fd = open(path, flags | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

int fclose(FILE *f)
{
	int r = close(f->fd);

	if (f >= std_files && f < std_files + 3)
		return r;
	free(f);
	return r;
}

void perror(const char *what)
{
	if (what && *what)
		fprintf(stderr, "%s: %s\n", what, strerror(errno));
	else
		fprintf(stderr, "%s\n", strerror(errno));
}
