/* <stdlib.h>: malloc over brk (malloc.c), exit and atexit (exit.c), number parsing, the environment. */
#ifndef USER_STDLIB_H
#define USER_STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

void *malloc(size_t n);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

void exit(int status) __attribute__((noreturn));
void _Exit(int status) __attribute__((noreturn));
int atexit(void (*fn)(void));
void abort(void) __attribute__((noreturn));

int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
double strtod(const char *s, char **end);       /* strtod.c: correctly rounded */
double atof(const char *s);

char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int abs(int x);

#endif
