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

/* Is name one of the comma-separated words of spec? */
static bool spec_names(const char *spec, const char *name)
{
	size_t len = strlen(name);

	while (*spec) {
		const char *comma = strchr(spec, ',');
		size_t wlen = comma ? (size_t)(comma - spec) : strlen(spec);
		if (wlen == len && strncmp(spec, name, len) == 0)
			return true;
		if (!comma)
			break;
		spec = comma + 1;
	}
	return false;
}

static bool selected(const struct ktest *t, const char *spec)
{
	if (spec_names(spec, t->name))
		return true;
	return spec_names(spec, "all") && !(t->flags & KTEST_EXPLICIT);
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
