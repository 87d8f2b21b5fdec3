/*
 * ext2's symlinks: a target shorter than 60 bytes lives in the inode's
 * i_block[] itself (a "fast" symlink, no block at all); a longer one in a
 * data block of its own (a "slow" one). Linux 2.6's fs/ext2/symlink.c.
 */
#include "fs/ext2/ext2.h"

#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"

static bool is_fast(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	return ei->i_blocks == (ei->i_file_acl ? EXT2_ISB(inode)->bsize / 512 : 0);
}

static int ext2_readlink(struct inode *inode, char *buf, size_t size)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	size_t len = (size_t)inode->i_size;
	struct buffer_head *bh;
	uint32_t block;
	int r;

	if (is_fast(inode)) {
		len = MIN(MIN(len, sizeof(EXT2_I(inode)->i_data)), size);
		memcpy(buf, EXT2_I(inode)->i_data, len);
		return (int)len;
	}
	if (len >= sbi->bsize)
		return -EUCLEAN;
	r = ext2_bmap(inode, 0, false, &block);
	if (r < 0)
		return r;
	if (block == 0)
		return -EUCLEAN;
	bh = ext2_bread(sbi, block);
	if (!bh)
		return -EIO;
	len = MIN(len, size);
	memcpy(buf, bh->b_data, len);
	brelse(bh);
	return (int)len;
}

const struct inode_operations ext2_symlink_iops = {
	.readlink = ext2_readlink,
	.evict = ext2_evict,
	.write_inode = ext2_setattr,
};
