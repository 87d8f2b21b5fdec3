/*
 * test EXPR, or [ EXPR ]: exit 0 if EXPR is true, 1 if false, 2 if it is malformed.
 * EXPR: [!] one of  -e|-f|-d|-r|-w|-x|-s FILE,  -n|-z STRING,  STRING,
 * S1 = S2,  S1 != S2,  N1 -eq|-ne|-lt|-le|-gt|-ge N2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int bad(void)
{
	fprintf(stderr, "usage: test EXPR (see the comment at the top of test.c)\n");
	exit(2);
}

static int file_test(char op, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	switch (op) {
	case 'e': return 1;
	case 'f': return S_ISREG(st.st_mode);
	case 'd': return S_ISDIR(st.st_mode);
	case 'r': return access(path, R_OK) == 0;
	case 'w': return access(path, W_OK) == 0;
	case 'x': return access(path, X_OK) == 0;
	case 's': return st.st_size > 0;
	}
	return bad();
}

static int evaluate(int n, char **a)
{
	static const char *const num_ops[] = { "-eq", "-ne", "-lt", "-le", "-gt", "-ge" };
	long x, y;
	int i;

	if (n > 0 && strcmp(a[0], "!") == 0)
		return !evaluate(n - 1, a + 1);
	if (n == 0)
		return 0;
	if (n == 1)
		return a[0][0] != '\0';
	if (n == 2) {
		if (strcmp(a[0], "-n") == 0)
			return a[1][0] != '\0';
		if (strcmp(a[0], "-z") == 0)
			return a[1][0] == '\0';
		if (a[0][0] == '-' && a[0][1] && !a[0][2])
			return file_test(a[0][1], a[1]);
		return bad();
	}
	if (n != 3)
		return bad();
	if (strcmp(a[1], "=") == 0)
		return strcmp(a[0], a[2]) == 0;
	if (strcmp(a[1], "!=") == 0)
		return strcmp(a[0], a[2]) != 0;
	x = strtol(a[0], NULL, 10);
	y = strtol(a[2], NULL, 10);
	for (i = 0; i < 6; i++)
		if (strcmp(a[1], num_ops[i]) == 0) {
			int r[] = { x == y, x != y, x < y, x <= y, x > y, x >= y };

			return r[i];
		}
	return bad();
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	if (strcmp(name, "[") == 0) {
		if (argc < 2 || strcmp(argv[argc - 1], "]") != 0)
			bad();
		argc--;
	}
	return !evaluate(argc - 1, argv + 1);
}
