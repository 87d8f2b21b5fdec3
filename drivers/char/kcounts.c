/*
 * /dev/kcounts: the kernel's object counts as text, for tests that check
 * nothing leaks (user/tests/vfstest.c and others read it before and after
 * their run). Each line is "name value". /proc/meminfo keeps Linux's layout,
 * in kB, with no object counts in it; this is where a program sees the exact
 * counts a leak check compares: inodes, open files, pages, heap blocks, flock
 * locks.
 */
#include "drivers/char/kcounts.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "fs/flock.h"
#include "fs/ramfs/ramfs.h"
#include "kernel/lib/format.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

static ssize_t kcounts_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct kheap_stats hs;
	char buf[256];
	int len;

	kheap_get_stats(&hs);
	/*
	 * free_pages + heap_pages stays the same when nothing leaks, however the
	 * heap caches its freed blocks; heap_objects counts live kmalloc blocks.
	 */
	len = snprintf(buf, sizeof(buf),
		       "inodes %d\nfiles %d\nfile_pages %d\nfree_pages %u\nheap_pages %lu\nheap_objects %lu\n"
		       "flocks %d\n",
		       inode_count(), file_count(), ramfs_page_count(), pmm_free_count(),
		       hs.pages_in_use, hs.allocs - hs.frees, flock_count());
	if (*pos >= len)
		return 0;
	if (n > (size_t)(len - *pos))
		n = (size_t)(len - *pos);
	if (copy_to_user(ubuf, buf + *pos, n) < 0)
		return -EFAULT;
	*pos += n;
	return (ssize_t)n;
}

static const struct file_operations kcounts_fops = {
	.name = "kcounts",
	.read = kcounts_read,
};

void kcounts_init(void)
{
	int r = chrdev_register_mode(KCOUNTS_MAJOR, KCOUNTS_MINOR, "kcounts", 0444, &kcounts_fops);

	if (r < 0)
		printk("kcounts: cannot register /dev/kcounts: error %d\n", r);
}
