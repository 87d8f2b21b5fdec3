/*
 * The lexer. A word is kept exactly as written, quotes included, because
 * the quotes still matter later: "$x" and $x expand differently. Reading a
 * word only has to find where it ends, which means following quotes and
 * $( ), ${ } and ` ` to their closing character, across lines if need be.
 * A backslash-newline is a line continuation and vanishes here (except in
 * single quotes).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "lex.h"
#include "parse.h"
#include "sh.h"
#include "str.h"

void lex_init(struct lexer *lx, struct input *in)
{
	lx->in = in;
	lx->pending = NULL;
	lx->pending_tail = &lx->pending;
}

void lex_heredoc(struct lexer *lx, struct redir *r)
{
	r->next_pending = NULL;
	*lx->pending_tail = r;
	lx->pending_tail = &r->next_pending;
}

/* The next character, with backslash-newline pairs dropped (where they are continuations). */
static int next_char(struct lexer *lx)
{
	int c;

	for (;;) {
		c = input_getc(lx->in);
		if (c != '\\')
			return c;
		c = input_getc(lx->in);
		if (c != '\n') {
			input_ungetc(lx->in, c);
			return '\\';
		}
	}
}

static int scan_dollar(struct lexer *lx, struct str *w, int dq);
static int scan_backquote(struct lexer *lx, struct str *w);

/* A backslash and what it quotes, both kept. */
static void scan_escape(struct lexer *lx, struct str *w)
{
	int c = input_getc(lx->in);

	str_add(w, '\\');
	if (c >= 0)
		str_add(w, (char)c);
}

/* '...' after the opening quote: nothing is special inside. */
static int scan_squote(struct lexer *lx, struct str *w)
{
	int c;

	str_add(w, '\'');
	while ((c = input_getc(lx->in)) != '\'') {
		if (c < 0)
			return -1;
		str_add(w, (char)c);
	}
	str_add(w, '\'');
	return 0;
}

/* "..." after the opening quote: \, $ and ` keep their meaning. */
static int scan_dquote(struct lexer *lx, struct str *w)
{
	int c;

	str_add(w, '"');
	while ((c = next_char(lx)) != '"') {
		if (c < 0)
			return -1;
		if (c == '\\')
			scan_escape(lx, w);
		else if (c == '$') {
			if (scan_dollar(lx, w, 1) < 0)
				return -1;
		} else if (c == '`') {
			if (scan_backquote(lx, w) < 0)
				return -1;
		} else
			str_add(w, (char)c);
	}
	str_add(w, '"');
	return 0;
}

/* `...` after the opening backquote. */
static int scan_backquote(struct lexer *lx, struct str *w)
{
	int c;

	str_add(w, '`');
	while ((c = next_char(lx)) != '`') {
		if (c < 0)
			return -1;
		if (c == '\\')
			scan_escape(lx, w);
		else
			str_add(w, (char)c);
	}
	str_add(w, '`');
	return 0;
}

/*
 * Up to the character that closes a ${ or $(( (depth counts nested { or ().
 * Quotes inside are followed, so ${x:-"}"} works; within double quotes a '
 * is an ordinary character, as in "${x:-it's}".
 */
static int scan_nested(struct lexer *lx, struct str *w, char open, char close, int dq)
{
	int c, depth = 1, r = 0;

	while (depth > 0) {
		c = next_char(lx);
		if (c < 0)
			return -1;
		if (c == '\\')
			scan_escape(lx, w);
		else if (c == '\'' && !dq)
			r = scan_squote(lx, w);
		else if (c == '"')
			r = scan_dquote(lx, w);
		else if (c == '`')
			r = scan_backquote(lx, w);
		else if (c == '$')
			r = scan_dollar(lx, w, dq);
		else {
			if (c == open)
				depth++;
			else if (c == close)
				depth--;
			str_add(w, (char)c);
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

/*
 * The commands of a $( ), after the "(": the parser reads them (and is
 * thrown away: they are parsed again each time they are expanded) while
 * the input records every character it takes into the word. A $( ) inside
 * this one records into its own word; what it took is then added to ours.
 */
static int scan_cmdsub(struct lexer *lx, struct str *w)
{
	struct str *outer = lx->in->record;
	size_t start = w->len;
	int r;

	lx->in->record = w;
	r = parse_cmdsub(lx->in);
	lx->in->record = outer;
	if (r < 0)
		lx->reported = 1;
	if (outer)
		str_addn(outer, w->s + start, w->len - start);
	return r;
}

/* After a $: ${...}, $(...) and $((...)) are read to their end; anything else is plain text. */
static int scan_dollar(struct lexer *lx, struct str *w, int dq)
{
	int c = next_char(lx), c2;

	str_add(w, '$');
	if (c == '{') {
		str_add(w, '{');
		return scan_nested(lx, w, '{', '}', dq);
	}
	if (c == '(') {
		str_add(w, '(');
		c2 = next_char(lx);
		input_ungetc(lx->in, c2);
		if (c2 == '(')
			return scan_nested(lx, w, '(', ')', dq);        /* $(( )): arithmetic, parentheses balance */
		return scan_cmdsub(lx, w);
	}
	input_ungetc(lx->in, c);
	return 0;
}

static int is_operator_char(int c) { return c >= 0 && strchr("|&;<>()", c) && c; }

/* A word, from its first character c to an unquoted blank, newline or operator. */
static int scan_word(struct lexer *lx, int c, struct str *w)
{
	int r = 0;

	for (;; c = next_char(lx)) {
		if (c < 0 || c == ' ' || c == '\t' || c == '\n' || is_operator_char(c)) {
			input_ungetc(lx->in, c);
			return 0;
		}
		if (c == '\\')
			scan_escape(lx, w);
		else if (c == '\'')
			r = scan_squote(lx, w);
		else if (c == '"')
			r = scan_dquote(lx, w);
		else if (c == '`')
			r = scan_backquote(lx, w);
		else if (c == '$')
			r = scan_dollar(lx, w, 0);
		else
			str_add(w, (char)c);
		if (r < 0)
			return -1;
	}
}

/* A here-doc delimiter as written, with its quotes removed; *quoted says if it had any. */
static char *heredoc_delimiter(const char *word, int *quoted)
{
	struct str d = { 0 };
	const char *p;

	*quoted = 0;
	for (p = word; *p; p++) {
		if (*p == '\'' || *p == '"') {
			*quoted = 1;
		} else if (*p == '\\' && p[1]) {
			*quoted = 1;
			str_add(&d, *++p);
		} else {
			str_add(&d, *p);
		}
	}
	return str_take(&d);
}

/* The bodies of the here-docs started on the line just ended, each up to its delimiter line. */
static void read_heredocs(struct lexer *lx)
{
	struct redir *r;
	struct str body = { 0 }, line = { 0 };
	char *delim;
	int c;

	for (r = lx->pending; r; r = r->next_pending) {
		delim = heredoc_delimiter(r->word, &r->quoted);
		for (;;) {
			while ((c = input_getc(lx->in)) >= 0 && c != '\n')
				str_add(&line, (char)c);
			str_adds(&line, "");
			if (r->strip_tabs)
				memmove(line.s, line.s + strspn(line.s, "\t"), strlen(line.s + strspn(line.s, "\t")) + 1);
			if (strcmp(line.s, delim) == 0 || (c < 0 && !line.s[0]))
				break;
			str_adds(&body, line.s);
			str_add(&body, '\n');
			str_free(&line);
			if (c < 0)
				break;
		}
		str_free(&line);
		free(delim);
		r->body = str_take(&body);
	}
	lx->pending = NULL;
	lx->pending_tail = &lx->pending;
}

/* An operator starting with < or >. */
static void scan_redir(struct lexer *lx, int c, struct token *t)
{
	int c2 = next_char(lx);

	t->type = T_REDIR;
	t->fd = c == '<' ? 0 : 1;
	if (c == '<' && c2 == '<') {
		t->kind = R_HEREDOC;
		c2 = next_char(lx);
		if (c2 == '-')
			t->strip_tabs = 1;
		else
			input_ungetc(lx->in, c2);
	} else if (c == '<' && c2 == '&') {
		t->kind = R_DUPIN;
	} else if (c == '<' && c2 == '>') {
		t->kind = R_RDWR;
	} else if (c == '<') {
		t->kind = R_IN;
		input_ungetc(lx->in, c2);
	} else if (c2 == '>') {
		t->kind = R_APPEND;
	} else if (c2 == '&') {
		t->kind = R_DUPOUT;
	} else {
		t->kind = R_OUT;
		if (c2 != '|')
			input_ungetc(lx->in, c2);
	}
}

/* Digits right before < or > are the fd to redirect (2>err, 3<&0): the word becomes that operator. */
static void fd_number(struct lexer *lx, struct token *t)
{
	int c = input_getc(lx->in), fd;

	input_ungetc(lx->in, c);
	if ((c != '<' && c != '>') || !t->text[0] || strspn(t->text, "0123456789") != strlen(t->text) ||
	    strlen(t->text) > 3)
		return;
	fd = atoi(t->text);
	free(t->text);
	t->text = NULL;
	scan_redir(lx, input_getc(lx->in), t);
	t->fd = fd;
}

void lex_next(struct lexer *lx, struct token *t)
{
	struct str w = { 0 };
	int c, c2;

	memset(t, 0, sizeof(*t));
	do
		c = next_char(lx);
	while (c == ' ' || c == '\t');
	if (c == '#')
		while ((c = input_getc(lx->in)) >= 0 && c != '\n')
			;
	t->line = lx->in->line;
	switch (c) {
	case -1:
		t->type = T_EOF;
		return;
	case '\n':
		t->line--;
		t->type = T_NEWLINE;
		read_heredocs(lx);
		return;
	case '<':
	case '>':
		scan_redir(lx, c, t);
		return;
	case '(':
		t->type = T_LPAREN;
		return;
	case ')':
		t->type = T_RPAREN;
		return;
	}
	if (c == ';' || c == '&' || c == '|') {
		c2 = next_char(lx);
		if (c2 == c) {
			t->type = c == ';' ? T_DSEMI : c == '&' ? T_AND : T_OR;
		} else {
			input_ungetc(lx->in, c2);
			t->type = c == ';' ? T_SEMI : c == '&' ? T_AMP : T_PIPE;
		}
		return;
	}
	lx->reported = 0;
	if (scan_word(lx, c, &w) < 0) {
		if (!lx->reported)
			sh_syntax_error(lx->in->line, "Unterminated quoted string");
		str_free(&w);
		t->type = T_ERROR;
		return;
	}
	t->text = str_take(&w);
	t->type = T_WORD;
	fd_number(lx, t);
}

const char *tok_name(const struct token *t)
{
	static const char *const names[] = {
		[T_EOF] = "end of file", [T_NEWLINE] = "newline", [T_WORD] = "word",
		[T_SEMI] = "\";\"", [T_DSEMI] = "\";;\"", [T_AMP] = "\"&\"", [T_AND] = "\"&&\"",
		[T_PIPE] = "\"|\"", [T_OR] = "\"||\"", [T_LPAREN] = "\"(\"", [T_RPAREN] = "\")\"",
		[T_REDIR] = "redirection", [T_ERROR] = "error",
	};

	return names[t->type];
}
