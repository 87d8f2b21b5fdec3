/*
 * ext2 directories: linear lists of entries in the directory's blocks, each
 * entry an inode number, its own length (rec_len: to the next entry), the
 * name and its type (Linux 2.6's fs/ext2/dir.c). A name is added in the
 * first gap big enough (an unused entry, or the slack at the end of a used
 * one, which is split) or in a new block at the end; a removed name is
 * merged into the entry before it. Every entry is checked before it is
 * believed: a rec_len of 0, one that runs past the block or an inode number
 * past the end is -EUCLEAN, never a loop or a read past the buffer.
 * Everything here runs with the directory's i_mutex held.
 */
#include "fs/ext2/ext2.h"

#include "fs/file.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/dirent.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

static bool entry_ok(struct ext2_sb_info *sbi, struct inode *dir, const struct ext2_dir_entry_2 *de,
		     uint32_t off)
{
	if (de->rec_len >= EXT2_DIR_REC_LEN(1) && de->rec_len % 4 == 0 &&
	    de->rec_len >= EXT2_DIR_REC_LEN(de->name_len) && off + de->rec_len <= sbi->bsize &&
	    de->inode <= sbi->inodes_count)
		return true;
	ext2_error(sbi, "ext2_check_page", "bad entry in directory", dir->i_ino);
	return false;
}

/* Block lblock of dir, read: -EUCLEAN for a hole (a directory has none), -EIO. */
static int dir_block(struct inode *dir, uint32_t lblock, struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	uint32_t block;
	int r = ext2_bmap(dir, lblock, false, &block);

	if (r < 0)
		return r;
	if (block == 0) {
		ext2_error(sbi, __func__, "hole in directory", dir->i_ino);
		return -EUCLEAN;
	}
	*bhp = ext2_bread(sbi, block);
	return *bhp ? 0 : -EIO;
}

static uint32_t dir_blocks(struct inode *dir)
{
	return (uint32_t)(dir->i_size / EXT2_ISB(dir)->bsize);
}

#define NEXT_DE(de) ((struct ext2_dir_entry_2 *)((char *)(de) + (de)->rec_len))

int ext2_find_entry(struct inode *dir, const struct qstr *name, struct buffer_head **bhp,
		    struct ext2_dir_entry_2 **dep, struct ext2_dir_entry_2 **prevp)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);

	for (uint32_t lb = 0; lb < dir_blocks(dir); lb++) {
		struct ext2_dir_entry_2 *de, *prev = NULL;
		struct buffer_head *bh;
		int r = dir_block(dir, lb, &bh);

		if (r < 0)
			return r;
		for (uint32_t off = 0; off < sbi->bsize; off += de->rec_len) {
			de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
			if (!entry_ok(sbi, dir, de, off)) {
				brelse(bh);
				return -EUCLEAN;
			}
			if (de->inode && de->name_len == name->len && memcmp(de->name, name->name, name->len) == 0) {
				*bhp = bh;
				*dep = de;
				if (prevp)
					*prevp = prev;
				return 0;
			}
			prev = de;
		}
		brelse(bh);
	}
	return -ENOENT;
}

void ext2_set_de_type(struct ext2_sb_info *sbi, struct ext2_dir_entry_2 *de, uint32_t mode)
{
	static const uint8_t types[16] = {
		[S_IFREG >> 12] = EXT2_FT_REG_FILE, [S_IFDIR >> 12] = EXT2_FT_DIR,
		[S_IFCHR >> 12] = EXT2_FT_CHRDEV, [S_IFBLK >> 12] = EXT2_FT_BLKDEV,
		[S_IFIFO >> 12] = EXT2_FT_FIFO, [S_IFSOCK >> 12] = EXT2_FT_SOCK,
		[S_IFLNK >> 12] = EXT2_FT_SYMLINK,
	};

	de->file_type = sbi->filetype ? types[(mode & S_IFMT) >> 12] : 0;
}

/* The directory changed: times, and no htree index any more (ext2 does not keep one). */
static int dir_changed(struct inode *dir)
{
	EXT2_I(dir)->i_flags &= ~EXT2_INDEX_FL;
	inode_touch(dir, true, true);
	return ext2_write_inode(dir);
}

static void fill_entry(struct inode *dir, struct ext2_dir_entry_2 *de, const struct qstr *name,
		       struct inode *inode)
{
	de->inode = inode->i_ino;
	de->name_len = (uint8_t)name->len;
	memcpy(de->name, name->name, name->len);
	ext2_set_de_type(EXT2_ISB(dir), de, inode->i_mode);
}

/* A gap for need bytes in this block: the entry to fill (split off if needed), or NULL. */
static struct ext2_dir_entry_2 *find_gap(struct inode *dir, struct buffer_head *bh, uint32_t need, int *err)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	struct ext2_dir_entry_2 *de;

	for (uint32_t off = 0; off < sbi->bsize; off += de->rec_len) {
		uint32_t used;

		de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
		if (!entry_ok(sbi, dir, de, off)) {
			*err = -EUCLEAN;
			return NULL;
		}
		if (!de->inode && de->rec_len >= need)
			return de;
		used = EXT2_DIR_REC_LEN(de->name_len);
		if (de->inode && de->rec_len >= used + need) {
			struct ext2_dir_entry_2 *gap = (struct ext2_dir_entry_2 *)((char *)de + used);

			gap->rec_len = (uint16_t)(de->rec_len - used);
			gap->inode = 0;
			de->rec_len = (uint16_t)used;
			return gap;
		}
	}
	return NULL;
}

int ext2_add_entry(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	uint32_t need = EXT2_DIR_REC_LEN(name->len), lb, block;
	struct ext2_dir_entry_2 *de = NULL;
	struct buffer_head *bh;
	int r = 0;

	if (name->len > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	for (lb = 0; lb < dir_blocks(dir); lb++) {
		r = dir_block(dir, lb, &bh);
		if (r < 0)
			return r;
		de = find_gap(dir, bh, need, &r);
		if (de || r < 0)
			break;
		brelse(bh);
	}
	if (r < 0) {
		brelse(bh);
		return r;
	}
	if (!de) {                      /* no room: a new block at the end */
		r = ext2_bmap(dir, lb, true, &block);
		if (r < 0)
			return r;
		bh = ext2_bread(sbi, block);
		if (!bh)
			return -EIO;
		de = (struct ext2_dir_entry_2 *)bh->b_data;
		de->rec_len = (uint16_t)sbi->bsize;
		dir->i_size += sbi->bsize;
	}
	fill_entry(dir, de, name, inode);
	mark_buffer_dirty(bh);
	brelse(bh);
	return dir_changed(dir);
}

int ext2_delete_entry(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
		      struct ext2_dir_entry_2 *prev)
{
	if (prev)
		prev->rec_len = (uint16_t)(prev->rec_len + de->rec_len);
	else
		de->inode = 0;
	mark_buffer_dirty(bh);
	return dir_changed(dir);
}

/* 1 if dir holds nothing but "." and "..", 0 if it holds more, or -errno. */
int ext2_empty_dir(struct inode *dir)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);

	for (uint32_t lb = 0; lb < dir_blocks(dir); lb++) {
		struct ext2_dir_entry_2 *de;
		struct buffer_head *bh;
		int r = dir_block(dir, lb, &bh);

		if (r < 0)
			return r;
		for (uint32_t off = 0; off < sbi->bsize; off += de->rec_len) {
			de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
			if (!entry_ok(sbi, dir, de, off)) {
				brelse(bh);
				return -EUCLEAN;
			}
			if (de->inode && !(de->name_len == 1 && de->name[0] == '.') &&
			    !(de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.')) {
				brelse(bh);
				return 0;
			}
		}
		brelse(bh);
	}
	return 1;
}

/* A new directory's first block: "." and "..". */
int ext2_make_empty(struct inode *inode, struct inode *parent)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	uint32_t block;
	int r = ext2_bmap(inode, 0, true, &block);

	if (r < 0)
		return r;
	bh = ext2_bread(sbi, block);
	if (!bh)
		return -EIO;
	de = (struct ext2_dir_entry_2 *)bh->b_data;
	de->inode = inode->i_ino;
	de->rec_len = EXT2_DIR_REC_LEN(1);
	de->name_len = 1;
	memcpy(de->name, ".", 1);
	ext2_set_de_type(sbi, de, S_IFDIR);
	de = NEXT_DE(de);
	de->inode = parent->i_ino;
	de->rec_len = (uint16_t)(sbi->bsize - EXT2_DIR_REC_LEN(1));
	de->name_len = 2;
	memcpy(de->name, "..", 2);
	ext2_set_de_type(sbi, de, S_IFDIR);
	mark_buffer_dirty(bh);
	brelse(bh);
	inode->i_size = sbi->bsize;
	return ext2_write_inode(inode);
}

/* A directory moved to another parent: its ".." (the second entry of its first block) follows. */
int ext2_set_dotdot(struct inode *dir, uint32_t parent_ino)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	int r = dir_block(dir, 0, &bh);

	if (r < 0)
		return r;
	de = (struct ext2_dir_entry_2 *)bh->b_data;
	if (!entry_ok(sbi, dir, de, 0) || de->rec_len + EXT2_DIR_REC_LEN(2) > sbi->bsize ||
	    !entry_ok(sbi, dir, NEXT_DE(de), de->rec_len) || NEXT_DE(de)->name_len != 2) {
		brelse(bh);
		return -EUCLEAN;
	}
	NEXT_DE(de)->inode = parent_ino;
	mark_buffer_dirty(bh);
	brelse(bh);
	return 0;
}

static unsigned dtype_of(struct ext2_sb_info *sbi, const struct ext2_dir_entry_2 *de)
{
	static const unsigned dt[8] = { DT_UNKNOWN, DT_REG, DT_DIR, DT_CHR, DT_BLK, DT_FIFO, DT_SOCK, DT_LNK };

	return sbi->filetype && de->file_type < 8 ? dt[de->file_type] : DT_UNKNOWN;
}

/* Emit the entries of one block from byte off on. 1: go on to the next block, 0: the caller's buffer is full. */
static int readdir_block(struct file *f, struct dir_context *ctx, struct buffer_head *bh, uint32_t lb,
			 uint32_t from, int *err)
{
	struct inode *dir = f->f_inode;
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	struct ext2_dir_entry_2 *de;

	for (uint32_t off = 0; off < sbi->bsize; off += de->rec_len) {
		loff_t next;

		de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
		if (!entry_ok(sbi, dir, de, off)) {
			*err = -EUCLEAN;
			return 0;
		}
		next = (loff_t)lb * sbi->bsize + off + de->rec_len;
		if (off < from)
			continue;
		if (de->inode && !ctx->emit(ctx, de->name, de->name_len, de->inode, dtype_of(sbi, de), next))
			return 0;
		f->f_pos = next;
	}
	return 1;
}

/* Positions are byte offsets into the directory, as in Linux: d_off is the next entry's. */
static int ext2_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode;
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	int r = 0;

	while (f->f_pos < dir->i_size) {
		uint32_t lb = (uint32_t)(f->f_pos / sbi->bsize);
		struct buffer_head *bh;

		r = dir_block(dir, lb, &bh);
		if (r < 0)
			return r;
		if (!readdir_block(f, ctx, bh, lb, (uint32_t)(f->f_pos % sbi->bsize), &r)) {
			brelse(bh);
			return r;
		}
		brelse(bh);
		f->f_pos = (loff_t)(lb + 1) * sbi->bsize;
	}
	return 0;
}

const struct file_operations ext2_dir_fops = {
	.name = "ext2",
	.llseek = generic_file_llseek,
	.readdir = ext2_readdir,
	.fsync = ext2_fsync,
};
