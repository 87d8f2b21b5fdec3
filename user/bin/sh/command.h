/* Simple commands: expansion, then a special builtin, a function, a builtin or a program. */
#ifndef SH_COMMAND_H
#define SH_COMMAND_H

#include "node.h"

int exec_simple(struct node *n, int flags);
/* The command builtin: command -v NAME, or command NAME ARGS (no function lookup). */
int builtin_command(int argc, char **argv);
/* The exec builtin's part that replaces the shell: exec NAME ARGS. Returns only on failure. */
int exec_program(char **argv);

#endif
