/*
 * ext2's regular files: read and write through the block map and the buffer
 * cache, block by block, under the file's i_mutex (Linux 2.6 went through
 * the page cache; smpix has none, so the buffer cache is the file's cache).
 * A hole reads as zeros; a write allocates the blocks it needs, zeroed.
 */
#include "fs/ext2/ext2.h"

#include "drivers/block/blk_queue.h"
#include "fs/file.h"
#include "kernel/mm/uaccess.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"

static const char zeros[4096];          /* a hole's bytes: the largest block size */

/*
 * -o ro: a file may be opened for reading only (Linux answers EROFS in
 * may_open()). A file past 2 GiB - 1 only with O_LARGEFILE: a 32-bit
 * program's off_t could not say where it is (Linux's generic_file_open()).
 */
static int ext2_file_open(struct inode *inode, struct file *f)
{
	if (EXT2_ISB(inode)->rdonly && ((f->f_flags & O_ACCMODE) != O_RDONLY || (f->f_flags & O_TRUNC)))
		return -EROFS;
	if (!(f->f_flags & O_LARGEFILE) && inode->i_size > EXT2_MAX_NON_LFS)
		return -EOVERFLOW;
	return 0;
}

/*
 * A read() reads the blocks it covers together, up to READ_RUN at a time:
 * each one's read is started (ll_rw_block) before the first is waited for,
 * so the plugged queue merges neighbours into requests of up to 64 KiB
 * (drivers/block/blk_plug.c). Block by block, bread() waited for each 1 KiB
 * request alone: 11-15 MB/s for a file against 100 for the raw disk. Linux
 * 2.6 gets the same from its page cache's read-ahead, which also reads
 * beyond the read() it serves; smpix reads only what is asked for.
 */
#define READ_RUN 64

/* Map and start blocks first..first+n-1 of the file: how many are ready to wait for, or -errno. */
static int start_run(struct inode *inode, uint32_t first, uint32_t n, struct buffer_head **bhs)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	uint32_t got = 0, block;
	int r = 0;

	while (got < n) {
		r = ext2_bmap(inode, first + got, false, &block);
		if (r < 0)
			break;
		bhs[got] = NULL;                /* a hole: zeros, no buffer */
		if (block != 0 && !(bhs[got] = getblk(sbi->dev, block, sbi->bsize))) {
			r = -EIO;
			break;
		}
		got++;
	}
	for (uint32_t i = 0; i < got; i++)
		if (bhs[i])
			ll_rw_block(READ, 1, &bhs[i]);
	return got ? (int)got : r;
}

/* Copy one block's part to the user, once its read is over: 0 or -errno. */
static int copy_block(struct buffer_head *bh, uint32_t off, char *ubuf, size_t chunk)
{
	if (!bh)
		return copy_to_user(ubuf, zeros + off, chunk) < 0 ? -EFAULT : 0;
	wait_on_buffer(bh);
	if (!buffer_uptodate(bh))
		return -EIO;
	return copy_to_user(ubuf, bh->b_data + off, chunk) < 0 ? -EFAULT : 0;
}

static ssize_t ext2_file_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	uint32_t bsize = EXT2_ISB(inode)->bsize;
	struct buffer_head *bhs[READ_RUN];
	size_t done = 0;
	int r = 0;

	mutex_lock(&inode->i_mutex);
	while (r == 0 && *pos < inode->i_size && done < count) {
		loff_t end = MIN(*pos + (loff_t)(count - done), inode->i_size);
		uint32_t first = (uint32_t)(*pos / bsize);
		uint32_t want = (uint32_t)MIN((loff_t)READ_RUN, (end - 1) / bsize - first + 1);
		int n = start_run(inode, first, want, bhs);
		int i;

		if (n < 0) {
			r = n;
			break;
		}
		for (i = 0; i < n && r == 0; i++) {
			uint32_t off = (uint32_t)(*pos % bsize);
			size_t chunk = (size_t)MIN((loff_t)(bsize - off), end - *pos);

			r = copy_block(bhs[i], off, ubuf + done, chunk);
			if (bhs[i])
				brelse(bhs[i]);
			if (r == 0) {
				done += chunk;
				*pos += chunk;
			}
		}
		brelse_run(bhs + i, n - i);
	}
	mutex_unlock(&inode->i_mutex);
	return done ? (ssize_t)done : r;
}

/* Copy one block's part from the user, allocating the block if it is a hole: 0 or -errno. */
static int write_chunk(struct inode *inode, uint32_t lb, uint32_t off, const char *ubuf, size_t chunk)
{
	struct buffer_head *bh;
	uint32_t block;
	int r = ext2_bmap(inode, lb, true, &block);

	if (r < 0)
		return r;
	bh = ext2_bread(EXT2_ISB(inode), block);
	if (!bh)
		return -EIO;
	r = copy_from_user(bh->b_data + off, ubuf, chunk) < 0 ? -EFAULT : 0;
	mark_buffer_dirty(bh);          /* even after a fault: the copied part may be new */
	brelse(bh);
	return r;
}

/*
 * How far a write through f may go: the file system's largest file, and for
 * a file opened without O_LARGEFILE 2 GiB - 1 (Linux's "LFS rule": a 32-bit
 * program's off_t could not say where it is past that).
 */
static loff_t write_limit(struct file *f, struct ext2_sb_info *sbi)
{
	loff_t max = ext2_max_size(sbi);

	return (f->f_flags & O_LARGEFILE) ? max : MIN(max, EXT2_MAX_NON_LFS);
}

static ssize_t ext2_file_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	loff_t max = write_limit(f, sbi);
	size_t done = 0;
	int r = 0;

	if (sbi->rdonly)
		return -EROFS;
	mutex_lock(&inode->i_mutex);
	if (f->f_flags & O_APPEND)
		*pos = inode->i_size;   /* under i_mutex: two appenders never overwrite each other */
	if (*pos >= max && count)
		r = -EFBIG;
	else if (count > (uint64_t)(max - *pos))
		count = (size_t)(max - *pos);
	while (r == 0 && done < count) {
		uint32_t off = (uint32_t)(*pos % sbi->bsize);
		size_t chunk = MIN(count - done, (size_t)(sbi->bsize - off));

		r = write_chunk(inode, (uint32_t)(*pos / sbi->bsize), off, ubuf + done, chunk);
		if (r < 0)
			break;
		done += chunk;
		*pos += chunk;
		if (*pos > inode->i_size)
			inode->i_size = *pos;
	}
	if (done)
		inode_touch(inode, true, true);
	ext2_write_inode(inode);        /* size, times, blocks (a failed write may still have added some) */
	mutex_unlock(&inode->i_mutex);
	return done ? (ssize_t)done : r;
}

/* fsync(2): the inode into its buffer, then every dirty buffer of the device to the disk. */
int ext2_fsync(struct file *f)
{
	struct inode *inode = f->f_inode;
	int r;

	mutex_lock(&inode->i_mutex);
	r = ext2_write_inode(inode);
	mutex_unlock(&inode->i_mutex);
	if (r == 0)
		r = sync_blockdev(EXT2_ISB(inode)->dev);
	return r;
}

const struct file_operations ext2_file_fops = {
	.name = "ext2",
	.open = ext2_file_open,
	.llseek = generic_file_llseek,
	.read = ext2_file_read,
	.write = ext2_file_write,
	.fsync = ext2_fsync,
};

const struct inode_operations ext2_file_iops = {
	.truncate = ext2_setsize,
	.evict = ext2_evict,
	.write_inode = ext2_setattr,
};
