/* Shell functions: name() { body; }. */
#ifndef SH_FUNC_H
#define SH_FUNC_H

#include "node.h"

void func_define(const char *name, struct node *body);  /* keeps a reference to body */
struct node *func_find(const char *name);
int func_unset(const char *name);       /* 1 if there was one */

#endif
