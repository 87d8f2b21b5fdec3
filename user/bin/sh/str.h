/* Growing strings and string lists: what the lexer, the expander and argv building are made of. */
#ifndef SH_STR_H
#define SH_STR_H

#include <stddef.h>

/* A string that grows as characters are added; s is always NUL-terminated once anything is. */
struct str {
	char *s;
	size_t len, cap;
};

void str_add(struct str *b, char c);
void str_addn(struct str *b, const char *s, size_t n);
void str_adds(struct str *b, const char *s);
char *str_take(struct str *b);          /* the string (never NULL), malloc'd; b is empty again */
void str_free(struct str *b);

/* A NULL-terminated list of malloc'd strings, such as an argv. */
struct strv {
	char **v;
	int n, cap;
};

void strv_add(struct strv *a, char *s); /* takes s */
void strv_free(struct strv *a);

/* Out of memory ends the shell with a message instead of a NULL dereference later. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
