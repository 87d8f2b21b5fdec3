/*
 * The parser: recursive descent over POSIX sh's grammar, one function per
 * rule, each returning its part of the tree or NULL after reporting a
 * syntax error (p->error says so, and every caller unwinds).
 *
 *   command     and_or (( ; | & ) and_or)* [ ; | & ] NEWLINE
 *   and_or      pipeline (( && | || ) linebreak pipeline)*
 *   pipeline    [time] [!] unit ( | linebreak unit)*
 *   unit        simple | ( list ) | { list } | if | while | until | for | case   redirection*
 *   simple      (NAME=value | redirection)* [word (word | redirection)*]   or NAME ( ) unit
 *   list        and_or's separated by ; & or newlines, up to a closing word
 *
 * Reserved words (if, then, do, ...) are words like any other to the lexer;
 * they are reserved only where a command starts, so `echo fi` prints fi.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "parse.h"
#include "sh.h"
#include "str.h"

static const char *const reserved[] = {
	"!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "if", "then", "until",
	"while", NULL,
};

/* Words that end a list: the next part of the construct the list is in. */
static const char *const list_enders[] = { "then", "else", "elif", "fi", "do", "done", "esac", "}", NULL };

void parser_init(struct parser *p, struct input *in)
{
	memset(p, 0, sizeof(*p));
	lex_init(&p->lx, in);
}

void parser_free(struct parser *p)
{
	if (p->have_tok)
		free(p->tok.text);
	p->have_tok = 0;
}

static struct token *peek(struct parser *p)
{
	if (!p->have_tok) {
		lex_next(&p->lx, &p->tok);
		p->have_tok = 1;
		if (p->tok.type == T_ERROR)
			p->error = 1;
	}
	return &p->tok;
}

static void take(struct parser *p)
{
	free(p->tok.text);
	p->have_tok = 0;
}

static char *take_word(struct parser *p)
{
	char *w = p->tok.text;

	p->tok.text = NULL;
	p->have_tok = 0;
	return w;
}

static int in_list(const char *const *list, const char *w)
{
	for (; *list; list++)
		if (strcmp(*list, w) == 0)
			return 1;
	return 0;
}

/* The next token is the unquoted word kw. */
static int is_kw(struct parser *p, const char *kw)
{
	struct token *t = peek(p);

	return t->type == T_WORD && strcmp(t->text, kw) == 0;
}

static void linebreak(struct parser *p)
{
	while (peek(p)->type == T_NEWLINE)
		take(p);
}

/* Report the token in front as unexpected, perhaps naming what should have been there. */
static void unexpected(struct parser *p, const char *expecting)
{
	struct token *t = peek(p);
	char what[64];

	if (p->error)
		return;
	p->error = 1;
	if (t->type == T_WORD && in_list(reserved, t->text))
		snprintf(what, sizeof(what), "\"%s\"", t->text);
	else
		snprintf(what, sizeof(what), "%s", tok_name(t));
	if (expecting)
		sh_syntax_error(t->type == T_EOF ? p->lx.in->line : t->line, "%s unexpected (expecting \"%s\")",
				what, expecting);
	else
		sh_syntax_error(t->type == T_EOF ? p->lx.in->line : t->line, "%s unexpected", what);
}

static int expect_kw(struct parser *p, const char *kw)
{
	if (is_kw(p, kw)) {
		take(p);
		return 1;
	}
	unexpected(p, kw);
	return 0;
}

static int is_name(const char *s)
{
	if (!isalpha(*s) && *s != '_')
		return 0;
	while (isalnum(*s) || *s == '_')
		s++;
	return *s == '\0';
}

/* NAME=value, with NAME unquoted. */
static int is_assignment(const char *w)
{
	const char *p = w;

	if (!isalpha(*p) && *p != '_')
		return 0;
	while (isalnum(*p) || *p == '_')
		p++;
	return *p == '=';
}

static struct node *wrap(enum node_type type, struct node *body)
{
	struct node *n = node_new(type, body->line);

	n->body = body;
	return n;
}

static struct node *join(enum node_type type, struct node *left, struct node *right)
{
	struct node *n;

	if (!left)
		return right;
	n = node_new(type, left->line);
	n->left = left;
	n->right = right;
	return n;
}

static struct node *parse_and_or(struct parser *p);
static struct node *parse_unit(struct parser *p);

static int at_list_end(struct parser *p)
{
	struct token *t = peek(p);

	if (t->type == T_WORD)
		return in_list(list_enders, t->text);
	return t->type == T_EOF || t->type == T_RPAREN || t->type == T_DSEMI || t->type == T_ERROR;
}

/* A list inside a construct: and_or's separated by ; & or newlines, up to a closing word. */
static struct node *parse_list(struct parser *p, int may_be_empty)
{
	struct node *list = NULL, *n;
	enum tok sep;

	linebreak(p);
	while (!p->error && !at_list_end(p)) {
		n = parse_and_or(p);
		if (!n)
			break;
		sep = peek(p)->type;
		if (sep == T_AMP)
			n = wrap(N_BG, n);
		list = join(N_LIST, list, n);
		if (sep != T_AMP && sep != T_SEMI && sep != T_NEWLINE)
			break;          /* the closing word must come now: the caller checks */
		if (sep != T_NEWLINE)
			take(p);
		linebreak(p);
	}
	if (!p->error && !list && !may_be_empty)
		unexpected(p, NULL);
	if (p->error) {
		node_free(list);
		return NULL;
	}
	return list;
}

/* A redirection operator and its word; a here-doc's body is read after this line. */
static int parse_redir(struct parser *p, struct redir ***tail)
{
	struct redir *r = xmalloc(sizeof(*r));

	*r = (struct redir){ .kind = p->tok.kind, .fd = p->tok.fd, .strip_tabs = p->tok.strip_tabs };
	take(p);
	if (peek(p)->type != T_WORD) {
		free(r);
		unexpected(p, NULL);
		return -1;
	}
	r->word = take_word(p);
	**tail = r;
	*tail = &r->next;
	if (r->kind == R_HEREDOC)
		lex_heredoc(&p->lx, r);
	return 0;
}

static int parse_redirs(struct parser *p, struct redir **list)
{
	struct redir **tail = list;

	while (*tail)
		tail = &(*tail)->next;
	while (peek(p)->type == T_REDIR)
		if (parse_redir(p, &tail) < 0)
			return -1;
	return 0;
}

/* NAME ( ) body, once NAME and the ( have been seen. */
static struct node *parse_function(struct parser *p, struct node *n)
{
	take(p);
	if (peek(p)->type != T_RPAREN) {
		unexpected(p, ")");
		goto fail;
	}
	take(p);
	if (!is_name(n->args[0])) {
		sh_syntax_error(n->line, "Bad function name");
		p->error = 1;
		goto fail;
	}
	linebreak(p);
	n->type = N_FUNC;
	n->name = n->args[0];
	n->args[0] = NULL;
	n->body = parse_unit(p);
	if (n->body)
		return n;
fail:
	node_free(n);
	return NULL;
}

static struct node *parse_simple(struct parser *p)
{
	struct node *n = node_new(N_CMD, peek(p)->line);
	struct strv assigns = { 0 }, args = { 0 };
	struct redir **tail = &n->redirs;
	struct token *t;

	for (;;) {
		t = peek(p);
		if (t->type == T_REDIR) {
			if (parse_redir(p, &tail) < 0)
				break;
			continue;
		}
		if (t->type != T_WORD)
			break;
		if (args.n == 0 && is_assignment(t->text))
			strv_add(&assigns, take_word(p));
		else
			strv_add(&args, take_word(p));
		if (args.n == 1 && assigns.n == 0 && !n->redirs && peek(p)->type == T_LPAREN) {
			n->args = args.v;
			return parse_function(p, n);
		}
	}
	n->assigns = assigns.v;
	n->args = args.v;
	if (p->error) {
		node_free(n);
		return NULL;
	}
	return n;
}

/* After "if" or "elif": the condition, the then part, and an elif or else; not the fi. */
static struct node *parse_if_rest(struct parser *p, int line)
{
	struct node *n = node_new(N_IF, line);

	n->cond = parse_list(p, 0);
	if (!n->cond || !expect_kw(p, "then") || !(n->body = parse_list(p, 0)))
		goto fail;
	if (is_kw(p, "elif")) {
		line = peek(p)->line;
		take(p);
		if (!(n->els = parse_if_rest(p, line)))
			goto fail;
	} else if (is_kw(p, "else")) {
		take(p);
		if (!(n->els = parse_list(p, 0)))
			goto fail;
	}
	return n;
fail:
	node_free(n);
	return NULL;
}

static struct node *parse_if(struct parser *p, int line)
{
	struct node *n;

	take(p);
	n = parse_if_rest(p, line);
	if (n && !expect_kw(p, "fi")) {
		node_free(n);
		return NULL;
	}
	return n;
}

/* while and until: cond; do body; done. */
static struct node *parse_loop(struct parser *p, enum node_type type, int line)
{
	struct node *n = node_new(type, line);

	take(p);
	if (!(n->cond = parse_list(p, 0)) || !expect_kw(p, "do") || !(n->body = parse_list(p, 0)) ||
	    !expect_kw(p, "done")) {
		node_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_for(struct parser *p, int line)
{
	struct node *n = node_new(N_FOR, line);
	struct strv words = { 0 };

	take(p);
	if (peek(p)->type != T_WORD || !is_name(p->tok.text)) {
		if (!p->error)
			sh_syntax_error(line, "Bad for loop variable");
		p->error = 1;
		goto fail;
	}
	n->name = take_word(p);
	linebreak(p);
	if (is_kw(p, "in")) {
		take(p);
		while (peek(p)->type == T_WORD)
			strv_add(&words, take_word(p));
		n->words = words.v ? words.v : xmalloc(sizeof(char *));
		n->words[words.n] = NULL;
		if (peek(p)->type != T_SEMI && peek(p)->type != T_NEWLINE) {
			unexpected(p, "do");
			goto fail;
		}
		take(p);
	} else if (peek(p)->type == T_SEMI) {
		take(p);
	}
	linebreak(p);
	if (!expect_kw(p, "do") || !(n->body = parse_list(p, 0)) || !expect_kw(p, "done"))
		goto fail;
	return n;
fail:
	node_free(n);
	return NULL;
}

/* One "pattern | pattern ) list ;;" of a case. */
static struct case_item *parse_case_item(struct parser *p)
{
	struct case_item *c = xmalloc(sizeof(*c));
	struct strv pats = { 0 };

	*c = (struct case_item){ 0 };
	if (peek(p)->type == T_LPAREN)
		take(p);
	for (;;) {
		if (peek(p)->type != T_WORD) {
			unexpected(p, NULL);
			goto fail;
		}
		strv_add(&pats, take_word(p));
		if (peek(p)->type != T_PIPE)
			break;
		take(p);
	}
	c->patterns = pats.v;
	pats.v = NULL;
	if (peek(p)->type != T_RPAREN) {
		unexpected(p, ")");
		goto fail;
	}
	take(p);
	c->body = parse_list(p, 1);
	if (p->error)
		goto fail;
	if (peek(p)->type == T_DSEMI) {
		take(p);
		linebreak(p);
	} else if (!is_kw(p, "esac")) {
		unexpected(p, "esac");
		goto fail;
	}
	return c;
fail:
	strv_free(&pats);
	words_free(c->patterns);
	node_free(c->body);
	free(c);
	return NULL;
}

static struct node *parse_case(struct parser *p, int line)
{
	struct node *n = node_new(N_CASE, line);
	struct case_item **tail = &n->items;

	take(p);
	if (peek(p)->type != T_WORD) {
		unexpected(p, NULL);
		goto fail;
	}
	n->word = take_word(p);
	linebreak(p);
	if (!expect_kw(p, "in"))
		goto fail;
	linebreak(p);
	while (!is_kw(p, "esac")) {
		if (p->error || !(*tail = parse_case_item(p)))
			goto fail;
		tail = &(*tail)->next;
	}
	take(p);
	return n;
fail:
	node_free(n);
	return NULL;
}

/* { list } and ( list ). */
static struct node *parse_group(struct parser *p, enum node_type type, int line)
{
	struct node *n = node_new(type, line);

	take(p);
	if (!(n->body = parse_list(p, 0)))
		goto fail;
	if (type == N_GROUP && !expect_kw(p, "}"))
		goto fail;
	if (type == N_SUBSHELL) {
		if (peek(p)->type != T_RPAREN) {
			unexpected(p, ")");
			goto fail;
		}
		take(p);
	}
	return n;
fail:
	node_free(n);
	return NULL;
}

static struct node *parse_unit(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n = NULL;
	int line = t->line;

	if (t->type == T_LPAREN)
		n = parse_group(p, N_SUBSHELL, line);
	else if (t->type == T_REDIR || (t->type == T_WORD && !in_list(reserved, t->text)))
		return parse_simple(p);
	else if (is_kw(p, "if"))
		n = parse_if(p, line);
	else if (is_kw(p, "while"))
		n = parse_loop(p, N_WHILE, line);
	else if (is_kw(p, "until"))
		n = parse_loop(p, N_UNTIL, line);
	else if (is_kw(p, "for"))
		n = parse_for(p, line);
	else if (is_kw(p, "case"))
		n = parse_case(p, line);
	else if (is_kw(p, "{"))
		n = parse_group(p, N_GROUP, line);
	else
		unexpected(p, NULL);
	if (n && parse_redirs(p, &n->redirs) < 0) {
		node_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_pipeline(struct parser *p)
{
	struct node *n, *pipe, *c;
	int timed = 0, negate = 0;

	if (is_kw(p, "time")) {
		take(p);
		timed = 1;
	}
	if (is_kw(p, "!")) {
		take(p);
		negate = 1;
	}
	if (!(n = parse_unit(p)))
		return NULL;
	if (peek(p)->type == T_PIPE) {
		pipe = node_new(N_PIPE, n->line);
		pipe->cmds = xmalloc(sizeof(struct node *));
		pipe->cmds[pipe->ncmds++] = n;
		while (peek(p)->type == T_PIPE) {
			take(p);
			linebreak(p);
			if (!(c = parse_unit(p))) {
				node_free(pipe);
				return NULL;
			}
			pipe->cmds = xrealloc(pipe->cmds, (pipe->ncmds + 1) * sizeof(struct node *));
			pipe->cmds[pipe->ncmds++] = c;
		}
		n = pipe;
	}
	if (negate)
		n = wrap(N_NOT, n);
	if (timed)
		n = wrap(N_TIME, n);
	return n;
}

static struct node *parse_and_or(struct parser *p)
{
	struct node *n = parse_pipeline(p), *right;
	enum node_type type;

	while (n && (peek(p)->type == T_AND || peek(p)->type == T_OR)) {
		type = p->tok.type == T_AND ? N_AND : N_OR;
		take(p);
		linebreak(p);
		if (!(right = parse_pipeline(p))) {
			node_free(n);
			return NULL;
		}
		n = join(type, n, right);
	}
	return n;
}

int parse_cmdsub(struct input *in)
{
	struct parser p;
	struct node *n;
	int ok;

	parser_init(&p, in);
	n = parse_list(&p, 1);
	ok = !p.error && peek(&p)->type == T_RPAREN;
	if (!ok)
		unexpected(&p, ")");
	node_free(n);
	parser_free(&p);
	return ok ? 0 : -1;
}

/* After a syntax error: forget the rest of the line, so the next command starts afresh. */
static void recover(struct parser *p)
{
	int c, at_eol = p->have_tok && (p->tok.type == T_NEWLINE || p->tok.type == T_EOF);

	parser_free(p);
	if (!at_eol)
		while ((c = input_getc(p->lx.in)) >= 0 && c != '\n')
			;
	p->lx.pending = NULL;
	p->lx.pending_tail = &p->lx.pending;
}

int parse_command(struct parser *p, struct node **out)
{
	struct node *list = NULL, *n;
	enum tok sep;

	*out = NULL;
	p->error = 0;
	if (peek(p)->type == T_EOF)
		return 0;
	if (p->tok.type == T_NEWLINE) {
		take(p);
		return 1;
	}
	for (;;) {
		if (!(n = parse_and_or(p)))
			goto fail;
		sep = peek(p)->type;
		if (sep == T_AMP)
			n = wrap(N_BG, n);
		list = join(N_LIST, list, n);
		if (sep == T_AMP || sep == T_SEMI)
			take(p);
		else if (sep != T_NEWLINE && sep != T_EOF) {
			unexpected(p, NULL);
			goto fail;
		}
		if (peek(p)->type == T_NEWLINE) {
			take(p);
			break;
		}
		if (p->tok.type == T_EOF)
			break;
	}
	*out = list;
	return 1;
fail:
	node_free(list);
	recover(p);
	return -1;
}
