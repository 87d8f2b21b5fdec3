/*
 * Arithmetic expansion: $((expression)) with 64-bit integers (as dash's
 * intmax_t). One function per precedence level, lowest first:
 *
 *   assign   NAME (= += -= *= /= %= <<= >>= &= ^= |=) assign | cond
 *   cond     or [? assign : cond]
 *   or  ||   and &&   bitor |   bitxor ^   bitand &   equality == !=
 *   relational < <= > >=   shift << >>   additive + -   multiplicative * / %
 *   unary    + - ! ~ unary | primary
 *   primary  NUMBER | NAME | ( assign )
 *
 * A NAME stands for its variable's value (empty or unset: 0). The side that
 * && || ?: skip is parsed with `skip` set, so its assignments do not happen
 * and its division by zero is no error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "sh.h"
#include "str.h"
#include "vars.h"

struct arith {
	const char *expr;       /* the whole expression, for messages */
	const char *p;          /* where parsing is */
	int skip;               /* in a branch that is not taken */
	int error;
};

static long long assign(struct arith *a);

static void fail(struct arith *a, const char *what)
{
	if (!a->error)
		sh_error("arithmetic expression: %s: \"%s\"", what, a->expr);
	a->error = 1;
}

static void blanks(struct arith *a)
{
	while (isspace(*a->p))
		a->p++;
}

/* If the operator op comes next (and not a longer one that starts the same way), take it. */
static int accept(struct arith *a, const char *op)
{
	size_t n = strlen(op);

	blanks(a);
	if (strncmp(a->p, op, n) != 0)
		return 0;
	/* "<" must not take the start of "<<" or "<=", nor "&" of "&&", nor "=" of "==". */
	if (n == 1 && strchr("<>&|=!", op[0]) && (a->p[1] == op[0] || a->p[1] == '='))
		if (!(op[0] == '!' && a->p[1] == '!'))
			return 0;
	if (n == 2 && op[0] == op[1] && strchr("<>", op[0]) && a->p[2] == '=')
		return 0;
	a->p += n;
	return 1;
}

/* A variable's value as a number; a value that is not one is an error. */
static long long var_value(struct arith *a, const char *name)
{
	const char *v = var_get(name);
	char *end;
	long long x;

	if (!v || !*v) {
		if (sh.opt_u && !v)
			fail(a, "parameter not set");
		return 0;
	}
	x = strtoll(v, &end, 0);
	while (isspace(*end))
		end++;
	if (*end)
		fail(a, "variable is not a number");
	return x;
}

static long long primary(struct arith *a)
{
	char name[128], *end;
	long long x;
	int n = 0;

	blanks(a);
	if (accept(a, "(")) {
		x = assign(a);
		if (!accept(a, ")"))
			fail(a, "expecting ')'");
		return x;
	}
	if (isdigit(*a->p)) {
		x = strtoll(a->p, &end, 0);
		if (isalnum(*end) || *end == '_')
			fail(a, "bad number");
		a->p = end;
		return x;
	}
	while ((isalnum(a->p[n]) || a->p[n] == '_') && n < (int)sizeof(name) - 1) {
		name[n] = a->p[n];
		n++;
	}
	if (n == 0) {
		fail(a, "expecting primary");
		return 0;
	}
	name[n] = '\0';
	a->p += n;
	return var_value(a, name);
}

static long long unary(struct arith *a)
{
	if (accept(a, "+"))
		return unary(a);
	if (accept(a, "-"))
		return -unary(a);
	if (accept(a, "!"))
		return !unary(a);
	if (accept(a, "~"))
		return ~unary(a);
	return primary(a);
}

/* x op y for the binary operators; division by zero only matters when evaluated. */
static long long apply(struct arith *a, const char *op, long long x, long long y)
{
	if ((op[0] == '/' || op[0] == '%') && y == 0) {
		if (!a->skip)
			fail(a, "division by zero");
		return 0;
	}
	switch (op[0]) {
	case '*': return x * y;
	case '/': return x / y;
	case '%': return x % y;
	case '+': return x + y;
	case '-': return x - y;
	case '<': return op[1] == '<' ? x << y : op[1] == '=' ? x <= y : x < y;
	case '>': return op[1] == '>' ? x >> y : op[1] == '=' ? x >= y : x > y;
	case '=': return x == y;
	case '!': return x != y;
	case '&': return x & y;
	case '^': return x ^ y;
	case '|': return x | y;
	}
	return 0;
}

/* The binary levels, tightest first: each is "next level (op next level)*". */
static const char *const levels[][5] = {
	{ "*", "/", "%" }, { "+", "-" }, { "<<", ">>" }, { "<=", ">=", "<", ">" }, { "==", "!=" },
	{ "&" }, { "^" }, { "|" },
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static long long binary(struct arith *a, int level)
{
	long long x, y;
	int i, more = 1;

	if (level < 0)
		return unary(a);
	x = binary(a, level - 1);
	while (more && !a->error) {
		more = 0;
		for (i = 0; levels[level][i]; i++)
			if (accept(a, levels[level][i])) {
				y = binary(a, level - 1);
				x = apply(a, levels[level][i], x, y);
				more = 1;
				break;
			}
	}
	return x;
}

/* && and ||: the right side is evaluated only when it decides. */
static long long logical(struct arith *a, int is_or)
{
	long long x = is_or ? logical(a, 0) : binary(a, NLEVELS - 1), y;
	int old = a->skip;

	while (!a->error && accept(a, is_or ? "||" : "&&")) {
		if (is_or ? x : !x)
			a->skip = 1;
		y = is_or ? logical(a, 0) : binary(a, NLEVELS - 1);
		a->skip = old;
		x = is_or ? (x || y) : (x && y);
	}
	return x;
}

static long long cond(struct arith *a)
{
	long long c = logical(a, 1), x, y;
	int old = a->skip;

	if (!accept(a, "?"))
		return c;
	a->skip = old || !c;
	x = assign(a);
	if (!accept(a, ":"))
		fail(a, "expecting ':'");
	a->skip = old || c;
	y = cond(a);
	a->skip = old;
	return c ? x : y;
}

static long long assign(struct arith *a)
{
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", NULL };
	const char *start, *q;
	char name[128], num[32];
	long long x;
	int n = 0, i;

	blanks(a);
	start = a->p;
	while ((isalnum(start[n]) || start[n] == '_') && n < (int)sizeof(name) - 1)
		n++;
	if (n == 0 || isdigit(start[0]))
		return cond(a);
	memcpy(name, start, n);
	name[n] = '\0';
	q = start + n;
	while (isspace(*q))
		q++;
	for (i = 0; ops[i]; i++)
		if (strncmp(q, ops[i], strlen(ops[i])) == 0 && q[strlen(ops[i])] != '=')
			break;
	if (!ops[i])
		return cond(a);
	a->p = q + strlen(ops[i]);
	x = assign(a);
	if (i > 0)
		x = apply(a, ops[i], var_value(a, name), x);
	if (!a->skip && !a->error) {
		snprintf(num, sizeof(num), "%lld", x);
		var_set(name, num);
	}
	return x;
}

int arith_eval(const char *expr, long long *value)
{
	struct arith a = { expr, expr, 0, 0 };

	*value = assign(&a);
	blanks(&a);
	if (*a.p && !a.error)
		fail(&a, "garbage after expression");
	if (a.error)
		sh_abort(2);
	return a.error ? -1 : 0;
}
