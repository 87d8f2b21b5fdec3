/* The parser: tokens to a tree (node.h), one complete command at a time. */
#ifndef SH_PARSE_H
#define SH_PARSE_H

#include "lex.h"

struct parser {
	struct lexer lx;
	struct token tok;       /* the token looked at but not yet taken */
	int have_tok;
	int error;              /* a syntax error was reported: unwind */
};

void parser_init(struct parser *p, struct input *in);
/*
 * The next complete command: everything up to the end of a line that does
 * not leave a construct open. 1 and the tree in *out (NULL for an empty
 * line), 0 at the end of the input, -1 after a syntax error (reported).
 */
int parse_command(struct parser *p, struct node **out);
void parser_free(struct parser *p);
/*
 * Right after "$(": parse the commands up to the ")" that closes it, which
 * only a parser can find (a case pattern's ")" does not close it). 0 with
 * the ")" taken, or -1 after a syntax error (reported).
 */
int parse_cmdsub(struct input *in);

#endif
