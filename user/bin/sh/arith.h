/* $(( )): integer arithmetic, C's operators and precedence, shell variables by name. */
#ifndef SH_ARITH_H
#define SH_ARITH_H

/* Evaluate expr (already expanded): 0 and *value, or -1 after reporting the error. */
int arith_eval(const char *expr, long long *value);

#endif
