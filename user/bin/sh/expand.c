/*
 * Word expansion. A word is walked once, left to right, building fields as
 * it goes: literal and quoted text is added as it is; an expansion's value
 * is added too, but when it is unquoted (and the word is being split) each
 * character of $IFS in it ends a field instead. Quoted characters that
 * would mean something to the pattern matcher (* ? [ \) are written with a
 * backslash in front when the result is a pattern, so that "*" stays a
 * star; pathname expansion then runs on each field that still has an
 * unescaped one, and the backslashes are taken out of the rest.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "cmdsub.h"
#include "expand.h"
#include "glob.h"
#include "input.h"
#include "parse.h"
#include "pattern.h"
#include "sh.h"
#include "vars.h"

struct fields {
	struct strv out;        /* the finished fields */
	struct str cur;         /* the field being built */
	int have;               /* cur is a field even if empty: "" was in the word */
	int ws_ended;           /* the last field ended at IFS white space (see add_value) */
	int split;              /* split unquoted expansions at IFS */
	int escape;             /* the result is a pattern: escape quoted pattern characters */
	int heredoc;            /* a here-doc body: " is an ordinary character */
	int nat;                /* how many "$@" so far: "$@" with no parameters makes no field */
	int in_braces;          /* inside ${x-word}: word's unquoted text is an expansion's, and splits */
};

static int expand_into(struct fields *f, const char *raw, int dq);

static void end_field(struct fields *f)
{
	strv_add(&f->out, str_take(&f->cur));
	f->have = 0;
}

static void add_char(struct fields *f, char c, int quoted)
{
	if (quoted && f->escape && strchr("*?[]\\", c))
		str_add(&f->cur, '\\');
	str_add(&f->cur, c);
	f->have = 1;
	f->ws_ended = 0;
}

static const char *ifs(void)
{
	const char *s = var_get("IFS");

	return s ? s : " \t\n";
}

/*
 * An expansion's value. Quoted, or when not splitting, it is text like any
 * other. Unquoted, IFS characters end fields: a run of IFS white space is
 * one separator (and none at the start or end); each other IFS character
 * is one, with the white space around it, so "a::b" with IFS=: is a, "", b.
 */
static void add_value(struct fields *f, const char *v, int quoted)
{
	const char *sep = ifs();

	for (; *v; v++) {
		if (quoted || !f->split || !strchr(sep, *v)) {
			add_char(f, *v, quoted || *v == '\\');
		} else if (*v == ' ' || *v == '\t' || *v == '\n') {
			if (f->have) {
				end_field(f);
				f->ws_ended = 1;
			}
		} else if (f->have) {
			end_field(f);
		} else if (f->ws_ended) {
			f->ws_ended = 0;
		} else {
			end_field(f);           /* an empty field: a separator with nothing before it */
		}
	}
}

/*
 * Where the bracket at p closes: p is at the ( or {, the result at the
 * matching ) or }. Quotes and escapes inside are skipped (' is not a quote
 * inside double quotes: dq). NULL if it never closes.
 */
static const char *find_close(const char *p, char open, char close, int dq)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '\'' && !dq) {
			p = strchr(p + 1, '\'');
			if (!p)
				return NULL;
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return NULL;
		} else if (*p == open) {
			depth++;
		} else if (*p == close && --depth == 0) {
			return p;
		}
	}
	return NULL;
}

/* The ) that closes a $( whose text starts at p: the parser finds it, as the lexer did (lex.c). */
static const char *cmdsub_end(const char *p)
{
	struct input in;

	input_from_string(&in, p, sh.lineno);
	if (parse_cmdsub(&in) < 0 || in.nunget > 0)
		return NULL;
	return in.str - 1;
}

/* A sub-expansion to one string: the word of ${x=word}, the text of $(( )). */
static char *expand_string(const char *raw, int escape)
{
	struct fields f = { .escape = escape };

	if (expand_into(&f, raw, 0) < 0) {
		str_free(&f.cur);
		return NULL;
	}
	return str_take(&f.cur);
}

/* The value of name; $@ and $* joined. NULL: unset. The result may be in buf, or malloc'd in *tofree. */
static const char *param_value(const char *name, char *buf, size_t size, char **tofree)
{
	struct str s = { 0 };
	const char *sep;
	int i;

	*tofree = NULL;
	if (strcmp(name, "@") != 0 && strcmp(name, "*") != 0)
		return var_param(name, buf, size);
	sep = name[0] == '*' ? ifs() : " ";
	for (i = 0; i < params.n; i++) {
		if (i > 0 && *sep)
			str_add(&s, *sep);
		str_adds(&s, params.v[i]);
	}
	return *tofree = str_take(&s);
}

/*
 * $@ and $*: "$@" is one field per parameter; "$*" one field, the
 * parameters joined by the first character of $IFS; unquoted, each
 * parameter is split on its own. Where nothing is split (x=$@) they join.
 */
static void add_params(struct fields *f, const char *name, int dq)
{
	int each = dq && name[0] == '@';
	char sep = name[0] == '*' ? *ifs() : ' ';
	int i;

	if (each)
		f->nat++;
	for (i = 0; i < params.n; i++) {
		if (i > 0 && each && f->split)
			end_field(f);
		else if (i > 0 && (dq || !f->split) && sep)
			add_char(f, sep, dq);
		else if (i > 0 && !dq && f->split && f->have)
			end_field(f);
		add_value(f, params.v[i], dq);
		if (each)
			f->have = 1;
	}
}

/* ${x#pattern} and the others: value with the shortest or longest matching prefix or suffix removed. */
static char *trim(const char *value, const char *op, const char *pat)
{
	size_t len = strlen(value), i;
	int longest = op[1] == op[0];

	if (op[0] == '#') {
		for (i = 0; i <= len; i++) {
			size_t n = longest ? len - i : i;

			if (pattern_match(pat, value, n))
				return xstrdup(value + n);
		}
	} else {
		for (i = 0; i <= len; i++) {
			size_t start = longest ? i : len - i;

			if (pattern_match(pat, value + start, len - start))
				return xstrndup(value, start);
		}
	}
	return xstrdup(value);
}

/* A ${...} taken apart: ${#name}, or ${name OP word}. */
struct braces {
	char name[64];
	char op[3];             /* "", "-", ":-", "#", "##", ...: what to do with the value */
	int colon;              /* the op had a colon: an empty value counts as unset */
	int length;             /* ${#name} */
	const char *word;
};

static int bad_substitution(const char *body)
{
	sh_error("${%s}: bad substitution", body);
	sh_abort(2);
	return -1;
}

static int parse_braces(const char *body, struct braces *b)
{
	const char *p = body;
	int n = 0;

	memset(b, 0, sizeof(*b));
	if (p[0] == '#' && p[1] && (var_is_special(p[1]) || isalpha(p[1]) || p[1] == '_')) {
		b->length = 1;
		p++;
	}
	if (var_is_special(*p) && !isdigit(*p))
		b->name[n++] = *p++;
	else if (isdigit(*p))
		while (isdigit(*p) && n < (int)sizeof(b->name) - 1)
			b->name[n++] = *p++;            /* ${10} */
	else
		while ((isalnum(*p) || *p == '_') && n < (int)sizeof(b->name) - 1)
			b->name[n++] = *p++;
	if (*p == ':') {
		b->colon = 1;
		p++;
	}
	if (*p && strchr("-=?+#%", *p)) {
		b->op[0] = *p++;
		if ((b->op[0] == '#' || b->op[0] == '%') && *p == b->op[0])
			b->op[1] = *p++;
	}
	b->word = p;
	if (n == 0 || (*p && !b->op[0]) || (b->length && b->op[0]) || (b->colon && !b->op[0]))
		return bad_substitution(body);
	return 0;
}

/* ${name=word}: the variable gets word's value when it is unset. */
static int assign_default(struct fields *f, const struct braces *b, int dq)
{
	char *w;

	if (!var_valid_name(b->name, -1)) {
		sh_error("%s: bad variable name", b->name);
		sh_abort(2);
		return -1;
	}
	if (!(w = expand_string(b->word, 0)))
		return -1;
	var_set(b->name, w);
	add_value(f, w, dq);
	free(w);
	return 0;
}

/* ${name?word}: an error, with word as the message. */
static int unset_error(const struct braces *b)
{
	char *w = *b->word ? expand_string(b->word, 0) : NULL;

	sh_error("%s: %s", b->name, w ? w : "parameter not set");
	free(w);
	sh_abort(2);
	return -1;
}

/* The word of ${name-word} and ${name+word}: its unquoted text splits as an expansion's does. */
static int expand_alternative(struct fields *f, const char *word, int dq)
{
	int r;

	f->in_braces++;
	r = expand_into(f, word, dq);
	f->in_braces--;
	return r;
}

/*
 * ${...}: ${name}, ${#name}, ${name-word} ${name=word} ${name?word}
 * ${name+word} (with a colon, an empty value counts as unset too), and
 * ${name#pattern} ${name##pattern} ${name%pattern} ${name%%pattern}.
 */
static int expand_braces(struct fields *f, const char *body, int dq)
{
	struct braces b;
	char buf[64], *tofree = NULL, *pat, *trimmed;
	const char *value;
	int unset, all = 0, r = 0;

	if (parse_braces(body, &b) < 0)
		return -1;
	value = param_value(b.name, buf, sizeof(buf), &tofree);
	if (b.name[0] == '@' || b.name[0] == '*')
		all = 1;
	unset = !value || (b.colon && !*value) || (all && !params.n);
	if (b.op[0] == '-' && unset)
		r = expand_alternative(f, b.word, dq);
	else if (b.op[0] == '+')
		r = unset ? 0 : expand_alternative(f, b.word, dq);
	else if (b.op[0] == '=' && unset)
		r = assign_default(f, &b, dq);
	else if (b.op[0] == '?' && unset)
		r = unset_error(&b);
	else if (!value && sh.opt_u && !b.op[0] && !all)
		r = unset_error(&b);
	else if (b.op[0] == '#' || b.op[0] == '%') {
		if (!(pat = expand_string(b.word, 1))) {
			r = -1;
		} else {
			trimmed = trim(value ? value : "", b.op, pat);
			add_value(f, trimmed, dq);
			free(trimmed);
			free(pat);
		}
	} else if (b.length) {
		snprintf(buf, sizeof(buf), "%d", (int)strlen(value ? value : ""));
		add_value(f, buf, dq);
	} else if (all) {
		add_params(f, b.name, dq);
	} else if (value) {
		add_value(f, value, dq);
	}
	free(tofree);
	return r;
}

/* $((expression)): the expression expanded as a string, then evaluated. */
static int expand_arith(struct fields *f, const char *text, int dq)
{
	char *e = expand_string(text, 0), num[32];
	long long v;

	if (!e || arith_eval(e, &v) < 0) {
		free(e);
		return -1;
	}
	free(e);
	snprintf(num, sizeof(num), "%lld", v);
	add_value(f, num, dq);
	return 0;
}

static int expand_cmdsub(struct fields *f, const char *text, int dq)
{
	char *out = cmdsub_run(text);

	add_value(f, out, dq);
	free(out);
	return 0;
}

/* `text`: inside backquotes a backslash quotes only $ ` and \ (and " within double quotes). */
static int expand_backquote(struct fields *f, const char **pp, int dq)
{
	const char *p = *pp + 1;
	struct str text = { 0 };
	int r;

	for (; *p && *p != '`'; p++) {
		if (*p == '\\' && p[1] && (strchr("$`\\", p[1]) || (dq && p[1] == '"')))
			p++;
		str_add(&text, *p);
	}
	*pp = *p ? p + 1 : p;
	r = expand_cmdsub(f, text.s ? text.s : "", dq);
	str_free(&text);
	return r;
}

/* A $ at *pp: expand what it starts, move *pp past it. */
static int expand_dollar(struct fields *f, const char **pp, int dq)
{
	const char *p = *pp + 1, *end;
	char name[64], buf[64], *tofree, *inner;
	const char *value;
	int n = 0, r;

	if (*p == '{' || *p == '(') {
		end = *p == '(' && p[1] != '(' ? cmdsub_end(p + 1) : find_close(p, *p, *p == '{' ? '}' : ')', dq);
		if (!end) {
			sh_error("missing %s", *p == '{' ? "}" : ")");
			sh_abort(2);
			return -1;
		}
		if (*p == '(' && p[1] == '(' && end[-1] == ')' && end - 1 > p + 1) {
			inner = xstrndup(p + 2, end - 1 - (p + 2));
			r = expand_arith(f, inner, dq);
		} else {
			inner = xstrndup(p + 1, end - (p + 1));
			r = *p == '{' ? expand_braces(f, inner, dq) : expand_cmdsub(f, inner, dq);
		}
		free(inner);
		*pp = end + 1;
		return r;
	}
	if (var_is_special(*p)) {
		name[n++] = *p++;
	} else {
		while ((isalnum(*p) || *p == '_') && n < (int)sizeof(name) - 1)
			name[n++] = *p++;
	}
	name[n] = '\0';
	*pp = p;
	if (n == 0) {
		add_char(f, '$', dq);           /* a $ before nothing it could expand stands for itself */
		return 0;
	}
	if (name[0] == '@' || name[0] == '*') {
		add_params(f, name, dq);
		return 0;
	}
	value = param_value(name, buf, sizeof(buf), &tofree);
	if (!value && sh.opt_u) {
		sh_error("%s: parameter not set", name);
		sh_abort(2);
		return -1;
	}
	if (value)
		add_value(f, value, dq);
	return 0;
}

/* A leading ~ or ~/...: $HOME. */
static const char *expand_tilde(struct fields *f, const char *p)
{
	const char *home = var_get("HOME");

	if (p[0] != '~' || (p[1] && p[1] != '/') || !home)
		return p;
	add_value(f, home, 1);
	return p + 1;
}

/* The heart: raw text into f. dq: the text is inside double quotes (a nested ${x-word} in "..."). */
static int expand_into(struct fields *f, const char *raw, int dq)
{
	const char *p = raw, *q;
	int nat = 0;

	while (*p) {
		if (*p == '\'' && !dq) {
			q = strchr(p + 1, '\'');
			q = q ? q : p + strlen(p);
			for (p++; p < q; p++)
				add_char(f, *p, 1);
			f->have = 1;
			p = *q ? q + 1 : q;
		} else if (*p == '"' && !f->heredoc) {
			if (!dq)
				nat = f->nat;
			else if (f->nat == nat)
				f->have = 1;    /* "" is an empty field, but "$@" without parameters none */
			dq = !dq;
			p++;
		} else if (*p == '\\' && p[1] && (!dq || strchr(f->heredoc ? "$`\\\n" : "$`\"\\\n", p[1]))) {
			if (p[1] != '\n')
				add_char(f, p[1], 1);
			p += 2;
		} else if (*p == '$') {
			if (expand_dollar(f, &p, dq) < 0)
				return -1;
		} else if (*p == '`') {
			if (expand_backquote(f, &p, dq) < 0)
				return -1;
		} else if (!dq && f->in_braces) {
			add_value(f, (char[]){ *p++, '\0' }, 0);
		} else {
			add_char(f, *p++, dq);
		}
	}
	return 0;
}

/* The end of a word: its fields, globbed where they have unquoted pattern characters. */
static void finish_fields(struct fields *f, struct strv *out)
{
	int i;

	if (f->have)
		end_field(f);
	str_free(&f->cur);
	for (i = 0; i < f->out.n; i++) {
		if (!sh.opt_f && pattern_has_magic(f->out.v[i]) && glob_expand(f->out.v[i], out) > 0)
			continue;
		strv_add(out, pattern_unescape(f->out.v[i]));
	}
	strv_free(&f->out);
}

int expand_fields(char **words, struct strv *out)
{
	struct fields f;

	for (; words && *words; words++) {
		f = (struct fields){ .split = 1, .escape = 1 };
		if (expand_into(&f, expand_tilde(&f, *words), 0) < 0) {
			str_free(&f.cur);
			strv_free(&f.out);
			return -1;
		}
		finish_fields(&f, out);
	}
	return 0;
}

char *expand_word(const char *raw)
{
	struct fields f = { 0 };

	if (expand_into(&f, expand_tilde(&f, raw), 0) < 0) {
		str_free(&f.cur);
		return NULL;
	}
	return str_take(&f.cur);
}

char *expand_pattern(const char *raw)
{
	return expand_string(raw, 1);
}

char *expand_heredoc(const char *body)
{
	struct fields f = { .heredoc = 1 };

	if (expand_into(&f, body, 1) < 0) {
		str_free(&f.cur);
		return NULL;
	}
	return str_take(&f.cur);
}
