/*
 * Shell pattern matching: * matches any string, ? any character, [abc]
 * [a-z] [!a-z] one of a set. A * is tried at each length, shortest first,
 * by recursion on the rest: patterns are short, so the cost is fine.
 */
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "str.h"

/* [set] at pat (after the '['), against c: 1/0, and *end past the ']'; -1 if there is no ']'. */
static int match_set(const char *pat, char c, const char **end)
{
	const char *p = pat;
	int negate = 0, found = 0;
	char lo, hi;

	if (*p == '!' || *p == '^') {
		negate = 1;
		p++;
	}
	do {
		if (!*p)
			return -1;
		if (*p == '\\' && p[1])
			p++;
		lo = hi = *p++;
		if (*p == '-' && p[1] && p[1] != ']') {
			p++;
			if (*p == '\\' && p[1])
				p++;
			hi = *p++;
		}
		if (c >= lo && c <= hi)
			found = 1;
	} while (*p != ']');
	*end = p + 1;
	return found != negate;
}

int pattern_match(const char *pat, const char *s, size_t len)
{
	const char *end;
	size_t i;
	int r;

	for (; *pat; pat++) {
		switch (*pat) {
		case '*':
			while (pat[1] == '*')
				pat++;
			for (i = 0; i <= len; i++)
				if (pattern_match(pat + 1, s + i, len - i))
					return 1;
			return 0;
		case '?':
			if (len == 0)
				return 0;
			break;
		case '[':
			if (len == 0)
				return 0;
			r = match_set(pat + 1, *s, &end);
			if (r == 0)
				return 0;
			if (r > 0) {
				pat = end - 1;
				break;
			}
			/* no closing ]: an ordinary [ */
			if (*s != '[')
				return 0;
			break;
		case '\\':
			if (pat[1])
				pat++;
			/* fall through */
		default:
			if (len == 0 || *s != *pat)
				return 0;
		}
		s++;
		len--;
	}
	return len == 0;
}

/* A [ without a ] after it is an ordinary character: so `[ $x = y ]` reads no directory. */
int pattern_has_magic(const char *pat)
{
	for (; *pat; pat++) {
		if (*pat == '\\' && pat[1])
			pat++;
		else if (*pat == '*' || *pat == '?' || (*pat == '[' && strchr(pat + 1, ']')))
			return 1;
	}
	return 0;
}

char *pattern_unescape(const char *pat)
{
	struct str s = { 0 };

	for (; *pat; pat++) {
		if (*pat == '\\' && pat[1])
			pat++;
		str_add(&s, *pat);
	}
	return str_take(&s);
}
