/* The string functions C programs expect beyond the kernel's own (kernel/lib/string.c, linked in too). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n > 0; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

/* C's strncpy: pads with NULs, and does not terminate a string that fills n. */
char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do
		if (*s == (char)c)
			last = s;
	while (*s++);
	return (char *)last;
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (strncmp(haystack, needle, n) == 0)
			return (char *)haystack;
	return n == 0 ? (char *)haystack : NULL;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

char *strdup(const char *s) { return strndup(s, strlen(s)); }

/* ---- numbers ---- */

static int digit_value(int c)
{
	if (isdigit(c))
		return c - '0';
	if (isalpha(c))
		return tolower(c) - 'a' + 10;
	return 99;
}

/* The body of the strto* family: sign, base prefix, digits; no overflow check. */
unsigned long long strtoull(const char *s, char **end, int base)
{
	unsigned long long v = 0;
	const char *start = s;
	int neg = 0, any = 0;

	while (isspace(*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] | 0x20) == 'x' && isxdigit(s[2])) {
		s += 2;
		base = 16;
	} else if (base == 0)
		base = s[0] == '0' ? 8 : 10;
	for (; digit_value(*s) < base; s++, any = 1)
		v = v * base + digit_value(*s);
	if (end)
		*end = (char *)(any ? s : start);
	return neg ? -v : v;
}

long long strtoll(const char *s, char **end, int base) { return (long long)strtoull(s, end, base); }
unsigned long strtoul(const char *s, char **end, int base) { return (unsigned long)strtoull(s, end, base); }
long strtol(const char *s, char **end, int base) { return (long)strtoull(s, end, base); }
long atol(const char *s) { return strtol(s, NULL, 10); }
int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
int abs(int x) { return x < 0 ? -x : x; }

/* ---- sorting: insertion sort over a shell-sort gap sequence (no recursion, no allocation) ---- */

static void swap_bytes(char *a, char *b, size_t size)
{
	while (size--) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *b = base;
	size_t gap, i, j;

	for (gap = n / 2; gap > 0; gap /= 2)
		for (i = gap; i < n; i++)
			for (j = i; j >= gap && cmp(b + (j - gap) * size, b + j * size) > 0; j -= gap)
				swap_bytes(b + (j - gap) * size, b + j * size, size);
}
