/*
 * /dev/journal: the driver of lab 6 (docs/labs/lab6-lock-statistics.md).
 *
 * Each write() is one record of 1 to JOURNAL_RECORD_MAX bytes. The journal
 * gives it the next sequence number (1, 2, 3, ...), keeps the newest
 * JOURNAL_KEEP records, and sums the numbers it gave out. read() shows
 *     records N next SEQ seqsum S
 * and then one line "SEQ CPU TEXT" per record kept. If no number is ever
 * given twice or skipped, seqsum is N(N+1)/2: a test can tell at once that
 * two writers raced.
 *
 * Many drivers of 2004 guarded their data with the BKL ("The Big Kernel
 * Lock lives on" found most of 2.6.6's lock_kernel() calls in drivers).
 */
/* LAB6: BEGIN locking-comment */
/*
 * This one did too: under a load of writers on every CPU, its lock_kernel()
 * in write() topped /proc/bkl. Now the journal has a spinlock of its own,
 * held only while the journal changes or is copied, never across a copy
 * from or to user space (which may fault, and so sleep).
 */
/* LAB6: END */
#include "drivers/lab/journal.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/locking/bkl.h"
#include "kernel/cpu.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/uapi/errno.h"

struct record {
	uint32_t seq;
	int cpu;
	uint32_t len;
	char text[JOURNAL_RECORD_MAX];
};

/* The journal: the numbers given out and the newest records. */
static struct {
	uint32_t next;                          /* the next sequence number to give out */
	uint64_t seqsum;                        /* the sum of those given out */
	struct record kept[JOURNAL_KEEP];       /* record seq is in kept[seq % JOURNAL_KEEP] */
} journal = { 1, 0, { { 0 } } };
/* LAB6: BEGIN journal-lock */
static spinlock_t journal_lock = SPINLOCK_INIT("journal");     /* protects journal */
/* LAB6: END */

/* Number rec and keep it. The caller holds what protects the journal. */
static void journal_append(struct record *rec)
{
	rec->seq = journal.next++;
	journal.seqsum += rec->seq;
	journal.kept[rec->seq % JOURNAL_KEEP] = *rec;
}

static ssize_t journal_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct record rec;

	if (n == 0)
		return 0;               /* no record */
	if (n > JOURNAL_RECORD_MAX)
		return -EINVAL;
	memset(&rec, 0, sizeof(rec));
	/* Copied before any lock is taken: the copy may fault in a page, and sleep. */
	if (copy_from_user(rec.text, ubuf, n) < 0)
		return -EFAULT;
	rec.len = (uint32_t)n;
	rec.cpu = cpu_id();
	/* LAB6: BEGIN write-append */
	spin_lock(&journal_lock);
	journal_append(&rec);
	spin_unlock(&journal_lock);
	/* LAB6: END */
	return (ssize_t)n;
}

/* The journal as text, into buf (at least JOURNAL_TEXT_MAX bytes): its length. */
#define JOURNAL_TEXT_MAX (64 + JOURNAL_KEEP * (JOURNAL_RECORD_MAX + 24))
static int journal_format(char *buf, const typeof(journal) *j)
{
	uint32_t records = j->next - 1, first = records > JOURNAL_KEEP ? records - JOURNAL_KEEP + 1 : 1;
	int len = snprintf(buf, JOURNAL_TEXT_MAX, "records %u next %u seqsum %llu\n", records, j->next,
			   j->seqsum);

	for (uint32_t seq = first; seq <= records; seq++) {
		const struct record *r = &j->kept[seq % JOURNAL_KEEP];
		char text[JOURNAL_RECORD_MAX + 1];
		uint32_t i;

		for (i = 0; i < r->len; i++)    /* one line per record: newlines and NULs become spaces */
			text[i] = r->text[i] == '\n' || r->text[i] == '\0' ? ' ' : r->text[i];
		text[i] = '\0';
		len += snprintf(buf + len, JOURNAL_TEXT_MAX - len, "%u %d %s\n", r->seq, r->cpu, text);
	}
	return len;
}

static ssize_t journal_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	typeof(journal) *snap = kmalloc(sizeof(journal));
	char *buf = kmalloc(JOURNAL_TEXT_MAX);
	ssize_t r = 0;
	int len;

	if (!snap || !buf) {
		r = -ENOMEM;
		goto out;
	}
	/* A snapshot under the lock; the formatting and the copy to user space after it. */
	/* LAB6: BEGIN read-snapshot */
	spin_lock(&journal_lock);
	*snap = journal;
	spin_unlock(&journal_lock);
	/* LAB6: END */
	len = journal_format(buf, snap);
	if (*pos < len) {
		r = (ssize_t)MIN(n, (size_t)(len - *pos));
		if (copy_to_user(ubuf, buf + *pos, (size_t)r) < 0)
			r = -EFAULT;
		else
			*pos += r;
	}
out:
	kfree(buf);
	kfree(snap);
	return r;
}

static const struct file_operations journal_fops = {
	.name = "journal",
	.read = journal_read,
	.write = journal_write,
};

void journal_init(void)
{
	int r = chrdev_register_mode(JOURNAL_MAJOR, JOURNAL_MINOR, "journal", 0666, &journal_fops);

	if (r < 0)
		printk("journal: cannot register /dev/journal: error %d\n", r);
}
