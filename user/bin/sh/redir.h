/* Redirections: < > >> <> <& >& and here-documents, and putting the fds back afterwards. */
#ifndef SH_REDIR_H
#define SH_REDIR_H

#include "node.h"

struct redir_undo;

/*
 * Apply r and the ones after it, left to right. With undo, each fd's old
 * state is saved there first, for redir_undo(); with NULL the change is for
 * good (a child about to exec, `exec >file`). 0, or -1 after a message.
 */
int redir_apply(struct redir *r, struct redir_undo **undo);
void redir_undo(struct redir_undo **undo);

#endif
