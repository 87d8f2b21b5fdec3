/* Making and freeing the parse tree. */
#include <stdlib.h>

#include "node.h"
#include "str.h"

struct node *node_new(enum node_type type, int line)
{
	struct node *n = xmalloc(sizeof(*n));

	*n = (struct node){ .type = type, .line = line, .refs = 1 };
	return n;
}

void words_free(char **w)
{
	char **p;

	for (p = w; p && *p; p++)
		free(*p);
	free(w);
}

void redirs_free(struct redir *r)
{
	struct redir *next;

	for (; r; r = next) {
		next = r->next;
		free(r->word);
		free(r->body);
		free(r);
	}
}

static void case_items_free(struct case_item *c)
{
	struct case_item *next;

	for (; c; c = next) {
		next = c->next;
		words_free(c->patterns);
		node_free(c->body);
		free(c);
	}
}

void node_free(struct node *n)
{
	int i;

	if (!n || --n->refs > 0)
		return;
	redirs_free(n->redirs);
	words_free(n->assigns);
	words_free(n->args);
	for (i = 0; i < n->ncmds; i++)
		node_free(n->cmds[i]);
	free(n->cmds);
	node_free(n->left);
	node_free(n->right);
	node_free(n->cond);
	node_free(n->body);
	node_free(n->els);
	free(n->name);
	words_free(n->words);
	free(n->word);
	case_items_free(n->items);
	free(n);
}
