/* <string.h>: the kernel's string functions (kernel/lib/string.c) plus what programs need besides. */
#ifndef USER_STRING_H
#define USER_STRING_H

#include <stddef.h>

#include "kernel/lib/string.h"

void *memchr(const void *s, int c, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strdup(const char *s);
char *strndup(const char *s, size_t n);
char *strerror(int err);
const char *strsignal(int sig);

#endif
