/* The executor: walking the tree, with the flags and the unwinding state that control flow needs. */
#ifndef SH_EXEC_H
#define SH_EXEC_H

#include "node.h"

#define EV_TESTED 1     /* a condition (if, while, && ||, !): set -e does not apply */
#define EV_EXIT   2     /* the last thing this process does: a command can exec without forking */

/* Run n; its status, which is also $?. */
int exec_node(struct node *n, int flags);

/*
 * break, continue, return and errors do not return through every caller
 * with a special value; they set exec_skip, and each list, loop and
 * function looks at it after running anything and stops (or, for the
 * loop or function it is meant for, handles it).
 */
enum skip { SKIP_NONE, SKIP_BREAK, SKIP_CONTINUE, SKIP_RETURN, SKIP_ABORT };
extern enum skip exec_skip;
extern int exec_skip_count;     /* break N, continue N: how many loops out */
extern int exec_loop_depth;     /* loops running, for break and continue */
extern int exec_func_depth;     /* functions (and . files) running, for return */

#endif
