/* printf FORMAT [ARG...]: the shell's printf builtin (user/bin/sh/printf.c) as a program, for xargs and exec. */
#include "user/bin/sh/builtins.h"

int main(int argc, char **argv)
{
	return printf_main(argc, argv);
}
