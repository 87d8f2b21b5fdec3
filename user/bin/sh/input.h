/* Where commands come from: a file, the terminal (with prompts) or a string. */
#ifndef SH_INPUT_H
#define SH_INPUT_H

#define INPUT_BUF 1024

struct str;

struct input {
	int fd;                 /* the file or terminal read; -1: a string */
	const char *str;        /* the string: sh -c, eval, $( ) */
	char buf[INPUT_BUF];    /* read but not yet taken: buf[pos..len) */
	int pos, len;
	int unget[4];           /* characters given back by the lexer, last first */
	int nunget;
	int line;               /* the line being read, from 1: for error messages and $LINENO */
	int prompt;             /* interactive: 1 before a new command ($PS1), 2 inside one ($PS2); 0: never */
	int eof;
	struct str *record;     /* if set, every character taken is also added here (see lex.c's $( )) */
};

void input_from_fd(struct input *in, int fd, int prompt);
void input_from_string(struct input *in, const char *s, int line);
int input_getc(struct input *in);       /* a character, or -1 at the end */
void input_ungetc(struct input *in, int c);

#endif
