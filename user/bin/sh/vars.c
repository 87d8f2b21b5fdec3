/*
 * Shell variables: a list of names and values, each perhaps exported. A
 * command the shell starts gets the exported ones as its environment; the
 * shell's own environment came in the same way, every name exported.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"
#include "str.h"
#include "vars.h"

struct var {
	char *name, *value;     /* value NULL: declared (export NAME) but not set */
	int exported;
	struct var *next;
};

static struct var *vars;
struct params params;

static struct var *find(const char *name)
{
	struct var *v;

	for (v = vars; v; v = v->next)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

static struct var *find_or_add(const char *name)
{
	struct var *v = find(name);

	if (!v) {
		v = xmalloc(sizeof(*v));
		*v = (struct var){ .name = xstrdup(name), .next = vars };
		vars = v;
	}
	return v;
}

int var_valid_name(const char *s, int len)
{
	int i;

	if (len < 0)
		len = strlen(s);
	if (len == 0 || isdigit(s[0]))
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_')
			return 0;
	return 1;
}

char *var_get(const char *name)
{
	struct var *v = find(name);

	return v ? v->value : NULL;
}

void var_set(const char *name, const char *value)
{
	struct var *v = find_or_add(name);
	char *old = v->value;

	v->value = value ? xstrdup(value) : NULL;
	free(old);              /* after the copy: value may point into old */
}

void var_export(const char *name, const char *value)
{
	if (value)
		var_set(name, value);
	find_or_add(name)->exported = 1;
}

void var_unset(const char *name)
{
	struct var **pp, *v;

	for (pp = &vars; (v = *pp); pp = &v->next)
		if (strcmp(v->name, name) == 0) {
			*pp = v->next;
			free(v->name);
			free(v->value);
			free(v);
			return;
		}
}

void var_import(char **env)
{
	char *eq, *name;

	for (; env && *env; env++) {
		if (!(eq = strchr(*env, '=')))
			continue;
		name = xstrndup(*env, eq - *env);
		if (var_valid_name(name, -1))
			var_export(name, eq + 1);
		free(name);
	}
}

char **var_environ(void)
{
	struct strv env = { 0 };
	struct str s = { 0 };
	struct var *v;

	for (v = vars; v; v = v->next)
		if (v->exported && v->value) {
			str_adds(&s, v->name);
			str_add(&s, '=');
			str_adds(&s, v->value);
			strv_add(&env, str_take(&s));
		}
	if (!env.v)
		strv_add(&env, NULL);
	return env.v;
}

void var_free_environ(char **env)
{
	char **p;

	for (p = env; *p; p++)
		free(*p);
	free(env);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct var *const *)a)->name, (*(struct var *const *)b)->name);
}

/* NAME='value', sorted, quoted so that the shell can read it back. */
void var_print(int exported_only)
{
	struct var *v, **all;
	struct str line = { 0 };
	const char *p;
	int n = 0, i;

	for (v = vars; v; v = v->next)
		n++;
	all = xmalloc(n * sizeof(*all));
	for (n = 0, v = vars; v; v = v->next)
		if (!exported_only || v->exported)
			all[n++] = v;
	qsort(all, n, sizeof(*all), by_name);
	for (i = 0; i < n; i++) {
		str_adds(&line, exported_only ? "export " : "");
		str_adds(&line, all[i]->name);
		if (all[i]->value) {
			str_adds(&line, "='");
			for (p = all[i]->value; *p; p++)
				str_adds(&line, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
			str_add(&line, '\'');
		}
		str_add(&line, '\n');
		fputs(line.s, stdout);
		str_free(&line);
	}
	free(all);
}

/* ---- parameters: variables, and the positional and special ones ---- */

int var_is_special(char c) { return c && (isdigit(c) || strchr("#?$!-@*", c)); }

const char *var_param(const char *name, char *buf, int size)
{
	int i;

	if (isdigit(name[0])) {
		i = atoi(name);
		return i == 0 ? sh.name : i <= params.n ? params.v[i - 1] : NULL;
	}
	switch (var_is_special(name[0]) ? name[0] : 0) {
	case '#':
		snprintf(buf, size, "%d", params.n);
		return buf;
	case '?':
		snprintf(buf, size, "%d", sh.status);
		return buf;
	case '$':
		snprintf(buf, size, "%d", sh.pid);
		return buf;
	case '!':
		if (!sh.last_bg)
			return NULL;
		snprintf(buf, size, "%d", sh.last_bg);
		return buf;
	case '-':
		snprintf(buf, size, "%s%s%s%s%s", sh.opt_e ? "e" : "", sh.opt_f ? "f" : "",
			 sh.interactive ? "i" : "", sh.opt_u ? "u" : "", sh.opt_x ? "x" : "");
		return buf;
	}
	if (strcmp(name, "LINENO") == 0 && !var_get(name)) {
		snprintf(buf, size, "%d", sh.lineno);
		return buf;
	}
	return var_get(name);
}

/* ---- saved values: local variables and NAME=value before a function or builtin ---- */

struct saved_var {
	char *name, *value;
	int existed, exported;
	struct saved_var *next;
};

struct saved_var **var_locals;

void var_save(struct saved_var **saved, const char *name)
{
	struct saved_var *s = xmalloc(sizeof(*s));
	struct var *v = find(name);

	*s = (struct saved_var){ .name = xstrdup(name), .next = *saved };
	if (v) {
		s->existed = 1;
		s->value = v->value ? xstrdup(v->value) : NULL;
		s->exported = v->exported;
	}
	*saved = s;
}

void var_restore(struct saved_var **saved)
{
	struct saved_var *s, *next;
	struct var *v;

	for (s = *saved; s; s = next) {
		next = s->next;
		if (s->existed) {
			v = find_or_add(s->name);
			free(v->value);
			v->value = s->value;
			v->exported = s->exported;
		} else {
			var_unset(s->name);
		}
		free(s->name);
		free(s);
	}
	*saved = NULL;
}

/* ---- positional parameters ---- */

void params_set(struct params *p, int n, char **v)
{
	int i;

	p->n = n;
	p->v = xmalloc((n + 1) * sizeof(char *));
	for (i = 0; i < n; i++)
		p->v[i] = xstrdup(v[i]);
	p->v[n] = NULL;
}

void params_free(struct params *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}
