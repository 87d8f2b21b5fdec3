/* The lexer: the input cut into words and operators, here-document bodies read at their newline. */
#ifndef SH_LEX_H
#define SH_LEX_H

#include "node.h"

enum tok {
	T_EOF, T_NEWLINE, T_WORD,
	T_SEMI, T_DSEMI, T_AMP, T_AND, T_PIPE, T_OR, T_LPAREN, T_RPAREN,
	T_REDIR,                /* an operator < > >> << <<- <& >& <> >|, with its fd */
	T_ERROR,                /* the lexer found a mistake (already reported) */
};

struct token {
	enum tok type;
	char *text;             /* T_WORD: the word as written, quotes and all (malloc'd) */
	int line;               /* the line it started on */
	enum redir_kind kind;   /* T_REDIR */
	int fd;                 /* T_REDIR: the fd redirected (0 for <, 1 for >, unless given) */
	int strip_tabs;         /* T_REDIR: <<- */
};

struct input;

struct lexer {
	struct input *in;
	struct redir *pending;  /* here-docs whose bodies start after the next newline */
	struct redir **pending_tail;
	int reported;           /* the error ending this word was reported already (in a $( )) */
};

void lex_init(struct lexer *lx, struct input *in);
void lex_next(struct lexer *lx, struct token *t);
/* A here-doc's redirection has been parsed: read its body after the current line. */
void lex_heredoc(struct lexer *lx, struct redir *r);
const char *tok_name(const struct token *t);   /* for "... unexpected" */

#endif
