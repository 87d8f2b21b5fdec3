/* The ktest runner: finds tests in section .ktests and reports one line each. */
#include "kernel/ktest.h"

#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/printk.h"

extern const struct ktest ktests_start[], ktests_end[];

static bool failed;
static char failure[160];

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (failed)
		return;
	failed = true;
	n = snprintf(failure, sizeof(failure), "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(failure + n, sizeof(failure) - n, fmt, ap);
	va_end(ap);
}

/* Does one word of a spec name this? A word ending in '*' names every name it begins, if prefixes. */
static bool word_names(const char *word, size_t wlen, const char *name, bool prefixes)
{
	size_t len = strlen(name);

	if (prefixes && wlen > 0 && word[wlen - 1] == '*')
		return len >= wlen - 1 && strncmp(word, name, wlen - 1) == 0;
	return wlen == len && strncmp(word, name, len) == 0;
}

/* Is name one of the comma-separated words of spec (test=a,b,smp_*)? */
static bool spec_names(const char *spec, const char *name, bool prefixes)
{
	while (*spec) {
		const char *comma = strchr(spec, ',');
		size_t wlen = comma ? (size_t)(comma - spec) : strlen(spec);

		if (word_names(spec, wlen, name, prefixes))
			return true;
		if (!comma)
			break;
		spec = comma + 1;
	}
	return false;
}

/* An explicit test (it crashes or misuses on purpose) runs only when named in full. */
static bool selected(const struct ktest *t, const char *spec)
{
	bool explicit = t->flags & KTEST_EXPLICIT;

	if (spec_names(spec, t->name, !explicit))
		return true;
	return spec_names(spec, "all", false) && !explicit;
}

int ktest_run(const char *spec)
{
	int passed = 0, nfailed = 0;

	printk("ktest: running '%s'\n", spec);
	for (const struct ktest *t = ktests_start; t < ktests_end; t++) {
		if (!selected(t, spec))
			continue;
		failed = false;
		t->fn();
		if (failed) {
			printk("ktest: %s FAIL %s\n", t->name, failure);
			nfailed++;
		} else {
			printk("ktest: %s ok\n", t->name);
			passed++;
		}
	}
	printk("ktest: summary %d passed, %d failed\n", passed, nfailed);
	return nfailed;
}
