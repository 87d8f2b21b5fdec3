/*
 * tr [-c] [-d] [-s] SET1 [SET2]: copy stdin to stdout, translating the
 * characters of SET1 into those of SET2 (the last one of SET2 repeats if
 * it is shorter), or with -d deleting them; -s squeezes a run of one
 * character of the last set given into one; -c takes the complement of
 * SET1. Sets: characters, ranges a-z, escapes \n \t \\ \NNN, and the
 * classes [:alpha:] [:digit:] [:alnum:] [:lower:] [:upper:] [:space:]
 * [:punct:] [:blank:].
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct set {
	unsigned char c[256 * 2];       /* the characters in order (a class may repeat a range) */
	int n;
};

static int usage(void)
{
	fprintf(stderr, "usage: tr [-c] [-d] [-s] SET1 [SET2]\n");
	return 2;
}

static int in_class(const char *name, int c)
{
	if (strcmp(name, "alpha") == 0) return isalpha(c);
	if (strcmp(name, "digit") == 0) return isdigit(c);
	if (strcmp(name, "alnum") == 0) return isalnum(c);
	if (strcmp(name, "lower") == 0) return islower(c);
	if (strcmp(name, "upper") == 0) return isupper(c);
	if (strcmp(name, "space") == 0) return isspace(c);
	if (strcmp(name, "blank") == 0) return c == ' ' || c == '\t';
	if (strcmp(name, "punct") == 0) return isprint(c) && !isalnum(c) && c != ' ';
	return -1;
}

/* One character of a set at *p, escapes decoded; moves *p past it. */
static int set_char(const char **p)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	const char *e;
	int v = 0, n;

	if (**p != '\\' || !(*p)[1])
		return (unsigned char)*(*p)++;
	(*p)++;
	if (**p >= '0' && **p <= '7') {
		for (n = 0; n < 3 && **p >= '0' && **p <= '7'; n++)
			v = v * 8 + (*(*p)++ - '0');
		return v;
	}
	e = strchr(from, **p);
	(*p)++;
	return e ? (unsigned char)to[e - from] : (unsigned char)(*p)[-1];
}

static int parse_set(const char *s, struct set *set)
{
	char name[16];
	const char *end;
	int lo, hi, c;

	set->n = 0;
	while (*s) {
		if (s[0] == '[' && s[1] == ':' && (end = strstr(s + 2, ":]")) && end - s - 2 < (int)sizeof(name)) {
			memcpy(name, s + 2, end - s - 2);
			name[end - s - 2] = '\0';
			if (in_class(name, 'a') < 0) {
				fprintf(stderr, "tr: invalid character class '%s'\n", name);
				return -1;
			}
			for (c = 0; c < 256; c++)
				if (in_class(name, c) && set->n < (int)sizeof(set->c))
					set->c[set->n++] = c;
			s = end + 2;
			continue;
		}
		lo = set_char(&s);
		if (s[0] == '-' && s[1]) {
			s++;
			hi = set_char(&s);
			if (hi < lo) {
				fprintf(stderr, "tr: range-endpoints of '%c-%c' are in reverse collating sequence order\n", lo, hi);
				return -1;
			}
		} else {
			hi = lo;
		}
		for (c = lo; c <= hi && set->n < (int)sizeof(set->c); c++)
			set->c[set->n++] = c;
	}
	return 0;
}

static void complement(struct set *set)
{
	unsigned char in[256] = { 0 };
	int c, i;

	for (i = 0; i < set->n; i++)
		in[set->c[i]] = 1;
	for (set->n = 0, c = 0; c < 256; c++)
		if (!in[c])
			set->c[set->n++] = c;
}

int main(int argc, char **argv)
{
	int comp = 0, del = 0, squeeze = 0, c, i, n, last = -1, o;
	struct set s1, s2;
	int map[256], drop[256] = { 0 }, squeezable[256] = { 0 };
	unsigned char in[4096], out[4096];

	while ((c = getopt(argc, argv, "cCds")) != -1) {
		if (c == 'c' || c == 'C')
			comp = 1;
		else if (c == 'd')
			del = 1;
		else if (c == 's')
			squeeze = 1;
		else
			return usage();
	}
	n = argc - optind;
	if (n < 1 || n > 2 || (!del && !squeeze && n != 2) || (del && !squeeze && n != 1))
		return usage();
	if (parse_set(argv[optind], &s1) < 0 || (n == 2 && parse_set(argv[optind + 1], &s2) < 0))
		return 1;
	if (comp)
		complement(&s1);
	for (c = 0; c < 256; c++)
		map[c] = c;
	if (del)
		for (i = 0; i < s1.n; i++)
			drop[s1.c[i]] = 1;
	if (!del && n == 2) {
		if (s2.n == 0) {
			fprintf(stderr, "tr: when not truncating set1, string2 must be non-empty\n");
			return 1;
		}
		for (i = 0; i < s1.n; i++)
			map[s1.c[i]] = s2.c[i < s2.n ? i : s2.n - 1];
	}
	/* -s applies to the last set named: SET2 when there is one, else SET1. */
	if (squeeze) {
		struct set *sq = n == 2 ? &s2 : &s1;

		for (i = 0; i < sq->n; i++)
			squeezable[sq->c[i]] = 1;
	}
	while ((n = read(0, in, sizeof(in))) > 0) {
		for (i = 0, o = 0; i < n; i++) {
			if (drop[in[i]])
				continue;
			c = map[in[i]];
			if (squeezable[c] && c == last)
				continue;
			out[o++] = c;
			last = c;
		}
		if (o && write(1, out, o) != o)
			return 1;
	}
	return 0;
}
