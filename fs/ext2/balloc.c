/*
 * ext2's block allocator: a bit per block in each group's block bitmap, the
 * free counts in the group descriptor and the superblock kept in step, all
 * under lock_super() (Linux 2.6.6's fs/ext2/balloc.c, without its
 * reservation windows). A new block is sought from a goal (the block after
 * the file's last one, or its inode's group) onwards, so files stay together.
 */
#include "fs/ext2/ext2.h"

#include "kernel/uapi/errno.h"

static bool test_bit8(const char *map, uint32_t bit) { return map[bit / 8] & (1 << (bit % 8)); }
static void set_bit8(char *map, uint32_t bit) { map[bit / 8] |= (char)(1 << (bit % 8)); }
static void clear_bit8(char *map, uint32_t bit) { map[bit / 8] &= (char)~(1 << (bit % 8)); }

/* How many blocks group g has (the last one may be short). */
static uint32_t group_blocks(struct ext2_sb_info *sbi, uint32_t g)
{
	uint32_t first = sbi->first_data_block + g * sbi->blocks_per_group;

	return MIN(sbi->blocks_per_group, sbi->blocks_count - first);
}

/* The first clear bit of map[0, n) at or after start, wrapping around; n if none. */
static uint32_t find_zero(const char *map, uint32_t n, uint32_t start)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t bit = (start + i) % n;

		if (!test_bit8(map, bit))
			return bit;
	}
	return n;
}

/* A corrupt bitmap could hand out the group's own metadata: Linux's "allocating block in system zone". */
static bool is_metadata(struct ext2_sb_info *sbi, struct ext2_group_desc *gd, uint32_t block)
{
	return block == gd->bg_block_bitmap || block == gd->bg_inode_bitmap ||
	       (block >= gd->bg_inode_table && block < gd->bg_inode_table + sbi->itb_per_group);
}

/* Take a free block of group g (goal_bit first): 0, -ENOSPC (none here), -EIO, -EUCLEAN. Needs lock_super. */
static int take_in_group(struct ext2_sb_info *sbi, uint32_t g, uint32_t goal_bit, uint32_t *out)
{
	struct ext2_group_desc *gd = ext2_gd(sbi, g);
	uint32_t n = group_blocks(sbi, g), bit, block;
	struct buffer_head *bh;

	if (gd->bg_free_blocks_count == 0)
		return -ENOSPC;
	bh = ext2_bread(sbi, gd->bg_block_bitmap);
	if (!bh)
		return -EIO;
	bit = find_zero(bh->b_data, n, goal_bit < n ? goal_bit : 0);
	block = sbi->first_data_block + g * sbi->blocks_per_group + bit;
	if (bit == n || is_metadata(sbi, gd, block)) {
		ext2_error(sbi, __func__, bit == n ? "free count wrong for group" : "bitmap frees metadata, group", g);
		brelse(bh);
		return -EUCLEAN;
	}
	set_bit8(bh->b_data, bit);
	mark_buffer_dirty(bh);
	brelse(bh);
	gd->bg_free_blocks_count--;
	mark_buffer_dirty(ext2_gd_bh(sbi, g));
	sbi->es->s_free_blocks_count--;
	mark_buffer_dirty(sbi->sbh);
	*out = block;
	return 0;
}

int ext2_new_block(struct ext2_sb_info *sbi, uint32_t goal, uint32_t *out)
{
	uint32_t g0;
	int r = -ENOSPC;

	if (sbi->rdonly)
		return -EROFS;
	if (!ext2_block_ok(sbi, goal))
		goal = sbi->first_data_block;
	g0 = (goal - sbi->first_data_block) / sbi->blocks_per_group;
	lock_super(sbi);
	for (uint32_t i = 0; sbi->es->s_free_blocks_count && i < sbi->groups; i++) {
		uint32_t g = (g0 + i) % sbi->groups;
		uint32_t goal_bit = i == 0 ? (goal - sbi->first_data_block) % sbi->blocks_per_group : 0;

		r = take_in_group(sbi, g, goal_bit, out);
		if (r != -ENOSPC && r != -EUCLEAN)
			break;
	}
	unlock_super(sbi);
	return r;
}

void ext2_free_block(struct ext2_sb_info *sbi, uint32_t block)
{
	uint32_t g, bit;
	struct buffer_head *bh;

	if (!ext2_block_ok(sbi, block)) {
		ext2_error(sbi, __func__, "freeing block not in the file system", block);
		return;
	}
	g = (block - sbi->first_data_block) / sbi->blocks_per_group;
	bit = (block - sbi->first_data_block) % sbi->blocks_per_group;
	lock_super(sbi);
	bh = ext2_bread(sbi, ext2_gd(sbi, g)->bg_block_bitmap);
	if (!bh) {
		unlock_super(sbi);
		return;
	}
	if (!test_bit8(bh->b_data, bit) || is_metadata(sbi, ext2_gd(sbi, g), block)) {
		ext2_error(sbi, __func__, "bit already cleared (or metadata) for block", block);
	} else {
		clear_bit8(bh->b_data, bit);
		mark_buffer_dirty(bh);
		ext2_gd(sbi, g)->bg_free_blocks_count++;
		mark_buffer_dirty(ext2_gd_bh(sbi, g));
		sbi->es->s_free_blocks_count++;
		mark_buffer_dirty(sbi->sbh);
	}
	brelse(bh);
	unlock_super(sbi);
}
