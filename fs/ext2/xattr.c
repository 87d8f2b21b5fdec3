/*
 * ext2's extended attributes, as far as smpix goes: it neither lists, reads
 * nor sets them (no getxattr family of calls), but a file may come with a
 * block of them (i_file_acl: Linux's setfattr, e2fsprogs' debugfs ea_set),
 * and that block must go back when the file goes, or e2fsck finds it lost.
 * Files with the same attributes share one block, counted in its header
 * (h_refcount): the last file to go frees it. Linux 2.6's
 * ext2_xattr_delete_inode() (fs/ext2/xattr.c), without the mbcache that
 * finds a block to share when attributes are set.
 */
#include "fs/ext2/ext2.h"

#define EXT2_XATTR_MAGIC 0xEA020000u

/* The block's header; the entries follow (not read here). */
struct ext2_xattr_header {
	uint32_t h_magic;               /* EXT2_XATTR_MAGIC */
	uint32_t h_refcount;            /* inodes naming this block in i_file_acl */
	uint32_t h_blocks;              /* always 1 */
	uint32_t h_hash;
	uint32_t h_reserved[4];
};

/*
 * Drop the header's count under the buffer's lock (as Linux, so two files
 * sharing the block and going at once on two CPUs count down once each):
 * true if it reached zero, false if others still use it or it is corrupt.
 */
static bool put_xattr_ref(struct ext2_sb_info *sbi, struct buffer_head *bh, uint32_t ino)
{
	struct ext2_xattr_header *h = (struct ext2_xattr_header *)bh->b_data;
	bool last = false, bad;

	lock_buffer(bh);
	bad = h->h_magic != EXT2_XATTR_MAGIC || h->h_blocks != 1 || h->h_refcount == 0;
	if (!bad)
		last = --h->h_refcount == 0;
	unlock_buffer(bh);
	if (bad)
		ext2_error(sbi, "ext2_xattr_delete_inode", "bad xattr block in inode", ino);
	else
		mark_buffer_dirty(bh);
	return last;
}

void ext2_xattr_delete_inode(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct ext2_inode_info *ei = EXT2_I(inode);
	uint32_t block = ei->i_file_acl;
	struct buffer_head *bh;

	if (block == 0)
		return;
	if (!ext2_block_ok(sbi, block)) {
		ext2_error(sbi, __func__, "xattr block past the end in inode", inode->i_ino);
	} else if ((bh = ext2_bread(sbi, block)) != NULL) {
		bool last = put_xattr_ref(sbi, bh, inode->i_ino);

		brelse(bh);
		if (last)
			ext2_free_block(sbi, block);    /* lock_super: after the buffer's lock, never inside it */
		ei->i_blocks -= MIN(ei->i_blocks, sbi->bsize / 512);
	}
	ei->i_file_acl = 0;
}
