/* Growing strings and string lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "str.h"

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		write(2, "sh: out of memory\n", 18);
		_exit(2);
	}
	return p;
}

void *xmalloc(size_t n) { return xrealloc(NULL, n); }

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

void str_addn(struct str *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		while (b->len + n + 1 > b->cap)
			b->cap = b->cap ? b->cap * 2 : 32;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void str_add(struct str *b, char c) { str_addn(b, &c, 1); }
void str_adds(struct str *b, const char *s) { str_addn(b, s, strlen(s)); }

char *str_take(struct str *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void str_free(struct str *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void strv_add(struct strv *a, char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 8;
		a->v = xrealloc(a->v, a->cap * sizeof(char *));
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void strv_free(struct strv *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}
