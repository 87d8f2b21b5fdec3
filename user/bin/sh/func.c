/*
 * Shell functions: a name and the parse tree of its body. The tree came
 * from the command that defined it, which is freed once it has run, so the
 * table holds a reference of its own (node.h's refs).
 */
#include <stdlib.h>
#include <string.h>

#include "func.h"
#include "str.h"

struct func {
	char *name;
	struct node *body;
	struct func *next;
};

static struct func *funcs;

static struct func *find(const char *name)
{
	struct func *f;

	for (f = funcs; f; f = f->next)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

void func_define(const char *name, struct node *body)
{
	struct func *f = find(name);

	body->refs++;
	if (f) {
		node_free(f->body);
	} else {
		f = xmalloc(sizeof(*f));
		f->name = xstrdup(name);
		f->next = funcs;
		funcs = f;
	}
	f->body = body;
}

struct node *func_find(const char *name)
{
	struct func *f = find(name);

	return f ? f->body : NULL;
}

int func_unset(const char *name)
{
	struct func **pp, *f;

	for (pp = &funcs; (f = *pp); pp = &f->next)
		if (strcmp(f->name, name) == 0) {
			*pp = f->next;
			node_free(f->body);
			free(f->name);
			free(f);
			return 1;
		}
	return 0;
}
