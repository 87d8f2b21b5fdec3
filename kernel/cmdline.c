/* The kernel command line parser (pure C: unit-tested on the host). */
#include "kernel/cmdline.h"

#include "kernel/lib/string.h"

struct cmdline kernel_cmdline;

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void cmdline_parse(struct cmdline *cl, const char *text)
{
	size_t len = text ? strlen(text) : 0;
	char *p = cl->buf;

	cl->nwords = 0;
	cl->truncated = len >= CMDLINE_MAX;
	if (cl->truncated)
		len = CMDLINE_MAX - 1;
	memcpy(cl->buf, text ? text : "", len);
	cl->buf[len] = '\0';

	for (;;) {
		char *eq;

		while (is_space(*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (cl->nwords == CMDLINE_WORDS) {
			cl->truncated = true;
			break;
		}
		cl->key[cl->nwords] = p;
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';
		eq = strchr(cl->key[cl->nwords], '=');
		if (eq) {
			*eq = '\0';
			cl->value[cl->nwords] = eq + 1;
		} else {
			cl->value[cl->nwords] = "";
		}
		cl->nwords++;
	}
}

const char *cmdline_lookup(const struct cmdline *cl, const char *key)
{
	for (int i = cl->nwords - 1; i >= 0; i--)
		if (strcmp(cl->key[i], key) == 0)
			return cl->value[i];
	return NULL;
}

unsigned cmdline_get_uint(const char *key, unsigned dflt)
{
	const char *v = cmdline_get(key);
	unsigned n = 0;

	if (!v || !*v)
		return dflt;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n >= (1u << 31) / 10)
			return dflt;
		n = n * 10 + (unsigned)(*v - '0');
	}
	return n;
}
