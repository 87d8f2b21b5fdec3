/*
 * test EXPR and [ EXPR ]: the shell's builtin, and /bin/test too
 * (user/bin/test.c is a main() around this file, so it stands alone).
 * Status 0 if EXPR is true, 1 if false, 2 if it is malformed.
 *
 *   files     -e -f -d -r -w -x -s -h -L -p -c -b -S FILE, -t FD
 *   strings   -n S, -z S, S, S1 = S2, S1 != S2, S1 < S2, S1 > S2
 *   numbers   N1 -eq -ne -lt -le -gt -ge N2
 *   logic     ! EXPR, EXPR -a EXPR, EXPR -o EXPR, ( EXPR )
 *
 * With up to four arguments POSIX fixes the meaning by how many there are
 * (so `test -n` and `test = = =` work); beyond that, a recursive-descent
 * parser: -o binds loosest, then -a, then !.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins.h"

struct test {
	char **a;               /* the arguments left */
	int n;
	int error;
};

static int syntax(struct test *t, const char *what)
{
	if (!t->error)
		fprintf(stderr, "test: %s\n", what);
	t->error = 1;
	return 0;
}

static int is_unary(const char *s)
{
	return s[0] == '-' && s[1] && !s[2] && strchr("efdrwxshLpcbSnzt", s[1]);
}

static int is_binary(const char *s)
{
	static const char *const ops[] = { "=", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", NULL };
	int i;

	for (i = 0; ops[i]; i++)
		if (strcmp(s, ops[i]) == 0)
			return 1;
	return 0;
}

static int unary(struct test *t, char op, const char *arg)
{
	struct stat st;

	if (op == 'n')
		return arg[0] != '\0';
	if (op == 'z')
		return arg[0] == '\0';
	if (op == 't')
		return isatty(atoi(arg));
	if (op == 'h' || op == 'L')
		return lstat(arg, &st) == 0 && S_ISLNK(st.st_mode);
	if (stat(arg, &st) < 0)
		return 0;
	switch (op) {
	case 'e': return 1;
	case 'f': return S_ISREG(st.st_mode);
	case 'd': return S_ISDIR(st.st_mode);
	case 'p': return S_ISFIFO(st.st_mode);
	case 'c': return S_ISCHR(st.st_mode);
	case 'b': return S_ISBLK(st.st_mode);
	case 'S': return S_ISSOCK(st.st_mode);
	case 's': return st.st_size > 0;
	case 'r': return access(arg, R_OK) == 0;
	case 'w': return access(arg, W_OK) == 0;
	case 'x': return access(arg, X_OK) == 0;
	}
	return 0;
}

static long long integer(struct test *t, const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	while (*end == ' ' || *end == '\t')
		end++;
	if (end == s || *end) {
		if (!t->error)
			fprintf(stderr, "test: %s: bad number\n", s);
		t->error = 1;
	}
	return v;
}

static int binary(struct test *t, const char *x, const char *op, const char *y)
{
	long long a, b;

	if (strcmp(op, "=") == 0)
		return strcmp(x, y) == 0;
	if (strcmp(op, "!=") == 0)
		return strcmp(x, y) != 0;
	if (strcmp(op, "<") == 0 || strcmp(op, ">") == 0)
		return op[0] == '<' ? strcmp(x, y) < 0 : strcmp(x, y) > 0;
	a = integer(t, x);
	b = integer(t, y);
	switch (op[1] * 256 + op[2]) {
	case 'e' * 256 + 'q': return a == b;
	case 'n' * 256 + 'e': return a != b;
	case 'l' * 256 + 't': return a < b;
	case 'l' * 256 + 'e': return a <= b;
	case 'g' * 256 + 't': return a > b;
	case 'g' * 256 + 'e': return a >= b;
	}
	return 0;
}

static int expr_or(struct test *t);

static char *next(struct test *t)
{
	t->n--;
	return *t->a++;
}

static int primary(struct test *t)
{
	char *s;
	int v;

	if (t->n == 0)
		return syntax(t, "argument expected");
	if (strcmp(t->a[0], "!") == 0) {
		next(t);
		return !primary(t);
	}
	if (strcmp(t->a[0], "(") == 0) {
		next(t);
		v = expr_or(t);
		if (t->n == 0 || strcmp(next(t), ")") != 0)
			return syntax(t, "closing paren expected");
		return v;
	}
	if (t->n >= 3 && is_binary(t->a[1])) {
		char *x = next(t), *op = next(t);

		return binary(t, x, op, next(t));
	}
	if (t->n >= 2 && is_unary(t->a[0])) {
		s = next(t);
		return unary(t, s[1], next(t));
	}
	return next(t)[0] != '\0';
}

static int expr_and(struct test *t)
{
	int v = primary(t);

	while (t->n > 0 && strcmp(t->a[0], "-a") == 0) {
		next(t);
		v = primary(t) && v;
	}
	return v;
}

static int expr_or(struct test *t)
{
	int v = expr_and(t);

	while (t->n > 0 && strcmp(t->a[0], "-o") == 0) {
		next(t);
		v = expr_and(t) || v;
	}
	return v;
}

/* POSIX's rules for 0 to 4 arguments, then the parser. */
static int evaluate(struct test *t, char **a, int n)
{
	if (n == 0)
		return 0;
	if (n == 1)
		return a[0][0] != '\0';
	if (n == 2 && strcmp(a[0], "!") == 0)
		return a[1][0] == '\0';
	if (n == 2 && is_unary(a[0]))
		return unary(t, a[0][1], a[1]);
	if (n == 3 && is_binary(a[1]))
		return binary(t, a[0], a[1], a[2]);
	if (n == 3 && strcmp(a[0], "!") == 0)
		return !evaluate(t, a + 1, 2);
	if (n == 3 && strcmp(a[0], "(") == 0 && strcmp(a[2], ")") == 0)
		return a[1][0] != '\0';
	if (n == 4 && strcmp(a[0], "!") == 0)
		return !evaluate(t, a + 1, 3);
	t->a = a;
	t->n = n;
	n = expr_or(t);
	if (t->n > 0)
		syntax(t, "unexpected operator");
	return n;
}

int test_main(int argc, char **argv)
{
	struct test t = { 0 };
	int v;

	if (strcmp(argv[0], "[") == 0 || (strrchr(argv[0], '/') && strcmp(strrchr(argv[0], '/'), "/[") == 0)) {
		if (strcmp(argv[argc - 1], "]") != 0) {
			fprintf(stderr, "[: missing ]\n");
			return 2;
		}
		argc--;
	}
	v = evaluate(&t, argv + 1, argc - 1);
	return t.error ? 2 : !v;
}
