/* The kernel log ring: printk output lands there with Linux's "<6>[time] " prefix, and it wraps. */
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/logbuf.h"
#include "kernel/mm/kheap.h"
#include "kernel/printk.h"

/* Does the needle appear in the first n bytes of hay? (hay is not NUL-terminated) */
static const char *find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(hay + i, needle, k) == 0)
			return hay + i;
	return NULL;
}

KTEST(logbuf_keeps_printk_lines_with_syslog_prefix)
{
	char *buf = kmalloc(LOG_BUF_LEN);
	const char *hit;
	size_t n;

	KT_ASSERT(buf);
	printk("ktest: logbuf marker 4711\n");
	n = logbuf_copy(buf, LOG_BUF_LEN, LOGBUF_ALL);
	hit = find(buf, n, "] ktest: logbuf marker 4711\n");
	/* The line starts with "<6>[", seconds, '.', six digits of microseconds. */
	KT_ASSERT(hit && hit - buf >= 15);
	while (hit > buf && hit[-1] != '\n')
		hit--;
	KT_ASSERT(memcmp(hit, "<6>[", 4) == 0);
	KT_ASSERT(find(hit, 20, ".") != NULL);
	/* After a clear, READ_ALL sees only what came later. */
	logbuf_clear();
	KT_ASSERT_EQ(logbuf_stored(), 0);
	printk("ktest: logbuf after clear\n");
	n = logbuf_copy(buf, LOG_BUF_LEN, LOGBUF_ALL);
	KT_ASSERT(find(buf, n, "logbuf after clear") != NULL);
	KT_ASSERT(find(buf, n, "marker 4711") == NULL);
	/* A short read gives the newest bytes. */
	n = logbuf_copy(buf, 6, LOGBUF_ALL);
	KT_ASSERT_EQ(n, 6);
	KT_ASSERT(memcmp(buf, "clear\n", 6) == 0);
	kfree(buf);
}

KTEST(logbuf_wraps_and_keeps_the_newest)
{
	char *buf = kmalloc(LOG_BUF_LEN);
	size_t n;

	KT_ASSERT(buf);
	/* Straight into the ring (not the console): more than it holds. */
	for (int i = 0; i < LOG_BUF_LEN + 1000; i++)
		logbuf_putc(i % 64 == 63 ? '\n' : 'a' + i % 26);
	logbuf_putc('Z');
	logbuf_putc('\n');
	KT_ASSERT_EQ(logbuf_stored(), LOG_BUF_LEN);
	n = logbuf_copy(buf, LOG_BUF_LEN, LOGBUF_ALL);
	KT_ASSERT_EQ(n, LOG_BUF_LEN);
	KT_ASSERT(buf[n - 2] == 'Z' && buf[n - 1] == '\n');
	/* Unread data is capped by the ring too, and reading consumes it. */
	KT_ASSERT(logbuf_unread() <= LOG_BUF_LEN);
	n = logbuf_copy(buf, LOG_BUF_LEN, LOGBUF_UNREAD);
	KT_ASSERT(n > 0);
	KT_ASSERT_EQ(logbuf_unread(), 0);
	logbuf_clear();                 /* leave no filler for dmesg */
	kfree(buf);
}
