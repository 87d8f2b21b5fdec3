/* The builtins: commands the shell runs itself, because they change the shell or are used in every loop. */
#ifndef SH_BUILTINS_H
#define SH_BUILTINS_H

typedef int (*builtin_fn)(int argc, char **argv);

struct builtin {
	const char *name;
	builtin_fn fn;
	int special;            /* POSIX's special builtins: found before functions, NAME=value stays */
};

const struct builtin *builtin_find(const char *name);

/* Builtins with a file of their own. echo, printf and test are also programs (/bin/printf, /bin/test). */
int builtin_getopts(int argc, char **argv);
int builtin_read(int argc, char **argv);
int builtin_trap(int argc, char **argv);
int echo_main(int argc, char **argv);
int printf_main(int argc, char **argv);
int test_main(int argc, char **argv);

#endif
