/* test EXPR: the shell's test builtin (user/bin/sh/test.c, where the grammar is) as a program. */
#include "user/bin/sh/builtins.h"

int main(int argc, char **argv)
{
	return test_main(argc, argv);
}
