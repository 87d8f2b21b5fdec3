/*
 * ext2's inode allocator: a bit per inode in each group's inode bitmap, the
 * group's free and directory counts and the superblock's free count kept in
 * step under lock_super() (Linux 2.6's fs/ext2/ialloc.c without the Orlov
 * allocator: a new inode goes in its directory's group, or the next with room).
 */
#include "fs/ext2/ext2.h"

#include "kernel/lib/string.h"
#include "kernel/random.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

static int find_zero_bit(const char *map, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!(map[i / 8] & (1 << (i % 8))))
			return (int)i;
	return -1;
}

/* Take a free inode in group g: its number, 0 if the group has none, -EIO. Needs lock_super. */
static int take_inode(struct ext2_sb_info *sbi, uint32_t g, bool dir, uint32_t *ino)
{
	struct ext2_group_desc *gd = ext2_gd(sbi, g);
	struct buffer_head *bh;
	int bit;

	if (gd->bg_free_inodes_count == 0)
		return 0;
	bh = ext2_bread(sbi, gd->bg_inode_bitmap);
	if (!bh)
		return -EIO;
	bit = find_zero_bit(bh->b_data, sbi->inodes_per_group);
	if (bit < 0 || g * sbi->inodes_per_group + (uint32_t)bit + 1 < sbi->first_ino) {
		ext2_error(sbi, __func__, "inode bitmap disagrees with the free count, group", g);
		brelse(bh);
		return 0;
	}
	bh->b_data[bit / 8] |= (char)(1 << (bit % 8));
	mark_buffer_dirty(bh);
	brelse(bh);
	gd->bg_free_inodes_count--;
	if (dir)
		gd->bg_used_dirs_count++;
	mark_buffer_dirty(ext2_gd_bh(sbi, g));
	sbi->es->s_free_inodes_count--;
	mark_buffer_dirty(sbi->sbh);
	*ino = g * sbi->inodes_per_group + (uint32_t)bit + 1;
	return 1;
}

static int alloc_ino(struct ext2_sb_info *sbi, uint32_t g0, bool dir, uint32_t *ino)
{
	int r = 0;

	lock_super(sbi);
	for (uint32_t i = 0; r == 0 && sbi->es->s_free_inodes_count && i < sbi->groups; i++)
		r = take_inode(sbi, (g0 + i) % sbi->groups, dir, ino);
	unlock_super(sbi);
	return r < 0 ? r : r == 0 ? -ENOSPC : 0;
}

int ext2_new_inode(struct inode *dir, uint32_t mode, struct inode **out)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	struct ext2_inode_info *ei;
	struct inode *inode;
	uint32_t ino;
	int r;

	if (sbi->rdonly)
		return -EROFS;
	r = alloc_ino(sbi, EXT2_I(dir)->i_block_group, S_ISDIR(mode), &ino);
	if (r < 0)
		return r;
	inode = ext2_inode_new_mem(dir->i_mnt, ino, mode);
	if (!inode) {
		ext2_free_inode_bit(sbi, ino, S_ISDIR(mode));
		return -ENOMEM;
	}
	ei = EXT2_I(inode);
	ei->i_block_group = (ino - 1) / sbi->inodes_per_group;
	random_bytes(&ei->i_generation, sizeof(ei->i_generation));
	ext2_set_ops(inode);
	r = ext2_write_inode(inode);
	if (r < 0) {
		inode->i_nlink = 0;
		iput(inode);            /* the eviction gives the number back */
		return r;
	}
	*out = inode;
	return 0;
}

void ext2_free_inode_bit(struct ext2_sb_info *sbi, uint32_t ino, bool dir)
{
	uint32_t g = (ino - 1) / sbi->inodes_per_group, bit = (ino - 1) % sbi->inodes_per_group;
	struct ext2_group_desc *gd = ext2_gd(sbi, g);
	struct buffer_head *bh;

	lock_super(sbi);
	bh = ext2_bread(sbi, gd->bg_inode_bitmap);
	if (bh && !(bh->b_data[bit / 8] & (1 << (bit % 8)))) {
		ext2_error(sbi, __func__, "bit already cleared for inode", ino);
	} else if (bh) {
		bh->b_data[bit / 8] &= (char)~(1 << (bit % 8));
		mark_buffer_dirty(bh);
		gd->bg_free_inodes_count++;
		if (dir && gd->bg_used_dirs_count)
			gd->bg_used_dirs_count--;
		mark_buffer_dirty(ext2_gd_bh(sbi, g));
		sbi->es->s_free_inodes_count++;
		mark_buffer_dirty(sbi->sbh);
	}
	brelse(bh);
	unlock_super(sbi);
}

void ext2_free_inode(struct inode *inode)
{
	ext2_free_inode_bit(EXT2_ISB(inode), inode->i_ino, S_ISDIR(inode->i_mode));
}
