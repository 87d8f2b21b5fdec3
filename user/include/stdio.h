/*
 * <stdio.h>: a small stdio (stdio.c). Output is written at the end of each
 * call (one write() per printf, so lines from two processes never mix in the
 * middle); input through a FILE is buffered, so fgets() reads whole blocks.
 */
#ifndef USER_STDIO_H
#define USER_STDIO_H

#include <stdarg.h>
#include <stddef.h>

#include <sys/types.h>                  /* ssize_t */

#include "kernel/lib/format.h"          /* snprintf, vsnprintf: shared with the kernel */

#define EOF (-1)
#define BUFSIZ 1024

typedef struct FILE {
	int fd;
	int eof, error;
	int pos, len;                   /* the unread part of buf: buf[pos..len) */
	char buf[BUFSIZ];
} FILE;

extern FILE *stdin, *stdout, *stderr;

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int dprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vprintf(const char *fmt, va_list ap);
int vfprintf(FILE *f, const char *fmt, va_list ap);
int vdprintf(int fd, const char *fmt, va_list ap);

int puts(const char *s);
int fputs(const char *s, FILE *f);
int putchar(int c);
int fputc(int c, FILE *f);
#define putc(c, f) fputc(c, f)
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);

FILE *fopen(const char *path, const char *mode);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *f);
int fgetc(FILE *f);
#define getc(f) fgetc(f)
int getchar(void);
char *fgets(char *buf, int size, FILE *f);
ssize_t getline(char **line, size_t *cap, FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);
int feof(FILE *f);
int ferror(FILE *f);
int fileno(FILE *f);
int fflush(FILE *f);

void perror(const char *what);
int rename(const char *old, const char *new);

#endif
