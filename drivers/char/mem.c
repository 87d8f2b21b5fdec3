/*
 * The memory devices of Linux's major 1, the ones programs rely on:
 * /dev/null (reads end at once, writes vanish), /dev/zero (reads give zero
 * bytes), /dev/full (reads give zeros, writes fail with ENOSPC).
 */
#include "drivers/char/mem.h"

#include "fs/devfs/chrdev.h"
#include "fs/file.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

#define MEM_MAJOR  1
#define NULL_MINOR 3
#define ZERO_MINOR 5
#define FULL_MINOR 7
#define ZERO_CHUNK 512

static ssize_t null_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return 0;
}

static ssize_t null_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	return (ssize_t)n;              /* Linux does not even look at the buffer */
}

static ssize_t zero_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	static const char zeros[ZERO_CHUNK];
	size_t done = 0;

	while (done < n) {
		size_t k = MIN(n - done, sizeof(zeros));

		if (copy_to_user(ubuf + done, zeros, k) < 0)
			return done ? (ssize_t)done : -EFAULT;
		done += k;
	}
	return (ssize_t)done;
}

static ssize_t full_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	return n ? -ENOSPC : 0;
}

/* Seeking these does nothing and always succeeds, at position 0 (Linux's null_lseek). */
static loff_t mem_llseek(struct file *f, loff_t offset, int whence)
{
	return 0;
}

static const struct file_operations null_fops = {
	.name = "null", .read = null_read, .write = null_write, .llseek = mem_llseek,
};
static const struct file_operations zero_fops = {
	.name = "zero", .read = zero_read, .write = null_write, .llseek = mem_llseek,
};
static const struct file_operations full_fops = {
	.name = "full", .read = zero_read, .write = full_write, .llseek = mem_llseek,
};

static void add(unsigned minor, const char *name, const struct file_operations *fops)
{
	int r = chrdev_register_mode(MEM_MAJOR, minor, name, 0666, fops);

	if (r < 0)
		printk("mem: cannot register /dev/%s: error %d\n", name, r);
}

void mem_devices_init(void)
{
	add(NULL_MINOR, "null", &null_fops);
	add(ZERO_MINOR, "zero", &zero_fops);
	add(FULL_MINOR, "full", &full_fops);
}
