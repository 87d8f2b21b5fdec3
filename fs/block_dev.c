/*
 * Block device files: open("/dev/hda1") and read, write, lseek, fsync and
 * the block ioctls, all through the buffer cache in 1024-byte blocks from the
 * device's start (so a partition's blocks are its own). Linux's semantics at
 * the end of the device: a read there returns 0, a write -ENOSPC, and one
 * that crosses it is cut short there.
 *
 * open() and release() run under the BKL, as Linux 2.6.6's do_open() and
 * blkdev_put() took it ("block and character devices have their open()
 * methods called under the BKL; block release() methods are also called
 * this way", 2004). It protects the open counts. Without the BKL (make
 * ERA=2.6.39) bdev_mutex does, as Linux's bd_mutex came to.
 *
 * After the last close of a device its dirty blocks are written and its clean
 * ones forgotten (Linux's kill_bdev), so the next open sees the disk as it is,
 * even if it was changed through another device (the whole disk and its
 * partition cache the same sectors under two names).
 */
#include "fs/block_dev.h"

#include "drivers/block/blk_queue.h"
#include "drivers/block/genhd.h"
#include "fs/buffer.h"
#include "fs/file.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/mm/uaccess.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fs.h"

#define BDEV_BLOCK 1024         /* the block size of the device files (BLKBSZGET) */
#define BDEV_READ_RUN 64        /* blocks a read() starts at once: one request's worth (BLK_MAX_SECTORS) */

DEFINE_OWN_MUTEX(bdev_mutex);

static dev_t file_dev(const struct file *f)
{
	return f->f_inode->i_rdev;
}

/* The size of f's device in bytes (0 if it has gone). */
static uint64_t bdev_bytes(const struct file *f)
{
	int partno;
	struct gendisk *disk = get_gendisk(file_dev(f), &partno);

	return disk ? (uint64_t)disk->part[partno].nr_sects * 512 : 0;
}

static int blkdev_open(struct inode *inode, struct file *f)
{
	struct gendisk *disk;
	int partno;

	lock_kernel_or(&bdev_mutex);
	disk = get_gendisk(inode->i_rdev, &partno);
	if (disk)
		disk->part[partno].opens++;
	unlock_kernel_or(&bdev_mutex);
	(void)f;
	return disk ? 0 : -ENXIO;
}

static int blkdev_release(struct inode *inode, struct file *f)
{
	struct gendisk *disk;
	int partno;

	(void)f;
	lock_kernel_or(&bdev_mutex);
	disk = get_gendisk(inode->i_rdev, &partno);
	if (disk && --disk->part[partno].opens == 0) {
		sync_blockdev(inode->i_rdev);   /* sleeps: the BKL is let go meanwhile */
		invalidate_bdev(inode->i_rdev);
	}
	unlock_kernel_or(&bdev_mutex);
	return 0;
}

/*
 * Blocks first..first+n-1 of dev, referenced, in bhs; their reads started
 * together (ll_rw_block), so the plugged queue merges them into requests of
 * up to BLK_MAX_SECTORS, and waited for. How many are readable, from the
 * first: a failed read or a missing buffer ends the run.
 */
static uint32_t bread_run(dev_t dev, uint32_t first, uint32_t n, struct buffer_head **bhs)
{
	uint32_t got = 0, ok = 0;

	while (got < n && (bhs[got] = getblk(dev, first + got, BDEV_BLOCK)) != NULL)
		got++;
	ll_rw_block(READ, (int)got, bhs);
	while (ok < got) {
		wait_on_buffer(bhs[ok]);
		if (!buffer_uptodate(bhs[ok]))
			break;
		ok++;
	}
	brelse_run(bhs + ok, (int)(got - ok));
	return ok;
}

static ssize_t blkdev_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	uint64_t size = bdev_bytes(f);
	struct buffer_head *bhs[BDEV_READ_RUN];
	size_t done = 0;

	if (*pos < 0)
		return -EINVAL;
	if ((uint64_t)*pos >= size)
		return 0;
	if (n > size - (uint64_t)*pos)
		n = (size_t)(size - (uint64_t)*pos);
	while (done < n) {
		uint64_t at = (uint64_t)*pos;
		uint32_t first = (uint32_t)(at / BDEV_BLOCK), off = (uint32_t)(at % BDEV_BLOCK);
		uint32_t want = (uint32_t)((off + (n - done) + BDEV_BLOCK - 1) / BDEV_BLOCK);
		uint32_t got = bread_run(file_dev(f), first, want < BDEV_READ_RUN ? want : BDEV_READ_RUN, bhs);
		int err = got ? 0 : -EIO;

		for (uint32_t i = 0; i < got; i++) {
			uint32_t chunk = BDEV_BLOCK - off;

			if (chunk > n - done)
				chunk = (uint32_t)(n - done);
			if (!err && copy_to_user(ubuf + done, bhs[i]->b_data + off, chunk) != 0)
				err = -EFAULT;
			brelse(bhs[i]);
			if (err)
				continue;
			done += chunk;
			*pos += chunk;
			off = 0;
		}
		if (err)
			return done ? (ssize_t)done : err;
	}
	return (ssize_t)done;
}

/* The buffer for a write of chunk bytes at off: not read first when the write covers all of it. */
static struct buffer_head *block_for_write(dev_t dev, uint32_t block, uint32_t off, uint32_t chunk)
{
	struct buffer_head *bh;

	if (off == 0 && chunk == BDEV_BLOCK) {
		bh = getblk(dev, block, BDEV_BLOCK);
		if (bh)
			set_buffer_uptodate(bh);        /* all of it is about to be written */
		return bh;
	}
	return bread(dev, block, BDEV_BLOCK);
}

static ssize_t blkdev_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	uint64_t size = bdev_bytes(f);
	size_t done = 0;

	if (*pos < 0)
		return -EINVAL;
	if (n == 0)
		return 0;
	if ((uint64_t)*pos >= size)
		return -ENOSPC;
	if (n > size - (uint64_t)*pos)
		n = (size_t)(size - (uint64_t)*pos);
	while (done < n) {
		uint64_t at = (uint64_t)*pos;
		uint32_t off = (uint32_t)(at % BDEV_BLOCK), chunk = BDEV_BLOCK - off;
		struct buffer_head *bh;

		if (chunk > n - done)
			chunk = (uint32_t)(n - done);
		bh = block_for_write(file_dev(f), (uint32_t)(at / BDEV_BLOCK), off, chunk);
		if (!bh)
			return done ? (ssize_t)done : -EIO;
		if (copy_from_user(bh->b_data + off, ubuf + done, chunk) != 0) {
			brelse(bh);
			return done ? (ssize_t)done : -EFAULT;
		}
		mark_buffer_dirty(bh);
		brelse(bh);
		done += chunk;
		*pos += chunk;
	}
	return (ssize_t)done;
}

static loff_t blkdev_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t base;

	switch (whence) {
	case 0: base = 0; break;                                /* SEEK_SET */
	case 1: base = f->f_pos; break;                         /* SEEK_CUR */
	case 2: base = (loff_t)bdev_bytes(f); break;            /* SEEK_END */
	default: return -EINVAL;
	}
	if (base + offset < 0)
		return -EINVAL;
	return base + offset;
}

static long put_user_bytes(unsigned long arg, const void *v, size_t n)
{
	return copy_to_user((void *)arg, v, n) ? -EFAULT : 0;
}

/* Linux's block ioctls (blkdev_ioctl); anything else is not for a block device: -ENOTTY. */
static long blkdev_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	uint64_t bytes = bdev_bytes(f);
	unsigned long sectors = (unsigned long)(bytes / 512);
	int ssz = 512, bsz = BDEV_BLOCK;

	switch (cmd) {
	case BLKGETSIZE64:
		return put_user_bytes(arg, &bytes, sizeof(bytes));
	case BLKGETSIZE:
		return put_user_bytes(arg, &sectors, sizeof(sectors));
	case BLKSSZGET:
		return put_user_bytes(arg, &ssz, sizeof(ssz));
	case BLKBSZGET:
		return put_user_bytes(arg, &bsz, sizeof(bsz));
	case BLKFLSBUF:
		sync_blockdev(file_dev(f));
		invalidate_bdev(file_dev(f));
		return 0;
	default:
		return -ENOTTY;
	}
}

static int blkdev_fsync(struct file *f)
{
	return sync_blockdev(file_dev(f));
}

/* No FOP_UNLOCKED_IOCTL: as in 2.6.6, blkdev_ioctl() is called under the BKL (fs/ioctl/vfs_ioctl.c). */
const struct file_operations blkdev_fops = {
	.name = "blockdev",
	.open = blkdev_open,
	.release = blkdev_release,
	.read = blkdev_read,
	.write = blkdev_write,
	.llseek = blkdev_llseek,
	.ioctl = blkdev_ioctl,
	.fsync = blkdev_fsync,
};
