/* The kernel command line: space-separated `key=value` words (or bare `key`). */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#define CMDLINE_MAX   512
#define CMDLINE_WORDS 32

struct cmdline {
	char buf[CMDLINE_MAX];
	int nwords;
	const char *key[CMDLINE_WORDS];
	const char *value[CMDLINE_WORDS];       /* "" for a bare word */
	bool truncated;                         /* too long or too many words: the rest was dropped */
};

/* Split text into words. Later duplicates of a key override earlier ones, as in Linux. */
void cmdline_parse(struct cmdline *cl, const char *text);
/* The value of key, or NULL if the word is absent. */
const char *cmdline_lookup(const struct cmdline *cl, const char *key);

/* The kernel's own command line, filled from multiboot at boot. */
extern struct cmdline kernel_cmdline;
static inline const char *cmdline_get(const char *key)
{
	return cmdline_lookup(&kernel_cmdline, key);
}
/* The value of key as a decimal number below 2^31, or dflt when the word is absent or not one. */
unsigned cmdline_get_uint(const char *key, unsigned dflt);

#endif
