/* Shell patterns (* ? [...]) for case, ${x#pattern} and file names. */
#ifndef SH_PATTERN_H
#define SH_PATTERN_H

#include <stddef.h>

/*
 * Does all of s[0..len) match pat? A backslash in pat makes the next
 * character literal: the expander writes quoted characters that way.
 */
int pattern_match(const char *pat, const char *s, size_t len);
int pattern_has_magic(const char *pat);  /* an unescaped * ? or [ */
char *pattern_unescape(const char *pat); /* the backslashes taken out, malloc'd */

#endif
