/*
 * ext2's directory operations, the inode_operations of a directory: lookup,
 * create (files, directories, device nodes, FIFOs), symlink, link, unlink,
 * rmdir and rename (Linux 2.6's fs/ext2/namei.c). The VFS holds the
 * directories' i_mutex; a change writes the inodes it touched back to their
 * buffers at once. On a read-only mount every change is -EROFS.
 */
#include "fs/ext2/ext2.h"

#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

static int ext2_lookup(struct inode *dir, const struct qstr *name, struct inode **out)
{
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	uint32_t ino;
	int r = ext2_find_entry(dir, name, &bh, &de, NULL);

	if (r < 0)
		return r;
	ino = de->inode;
	brelse(bh);
	return ext2_iget(dir->i_mnt, ino, out);
}

static int check_change(struct inode *dir)
{
	if (EXT2_ISB(dir)->rdonly)
		return -EROFS;
	return dir->i_nlink == 0 ? -ENOENT : 0;        /* removed while we walked to it */
}

/* A new inode of mode, named name in dir. Directories get "." and ".." and count in dir's links. */
static int make_named(struct inode *dir, const struct qstr *name, uint32_t mode, uint32_t rdev,
		      struct inode **out)
{
	struct inode *inode;
	int r = check_change(dir);

	if (r == 0 && S_ISDIR(mode) && dir->i_nlink >= EXT2_LINK_MAX)
		r = -EMLINK;
	if (r == 0)
		r = ext2_new_inode(dir, mode, &inode);
	if (r < 0)
		return r;
	if (S_ISCHR(mode) || S_ISBLK(mode))
		inode->i_rdev = ext2_encode_dev(rdev, EXT2_I(inode)->i_data);
	if (S_ISDIR(mode)) {
		inode->i_nlink = 2;
		r = ext2_make_empty(inode, dir);
	}
	if (r == 0)
		r = ext2_write_inode(inode);
	if (r == 0)
		r = ext2_add_entry(dir, name, inode);
	if (r < 0) {
		inode->i_nlink = 0;
		iput(inode);            /* evicted: its blocks and number go back */
		return r;
	}
	if (S_ISDIR(mode)) {
		inode_inc_link(dir);    /* the child's ".." */
		ext2_write_inode(dir);
	}
	*out = inode;
	return 0;
}

static int ext2_create(struct inode *dir, const struct qstr *name, uint32_t mode, uint32_t rdev,
		       struct inode **out)
{
	return make_named(dir, name, mode, rdev, out);
}

/* Up to 59 bytes live in i_block itself (a fast symlink); longer targets get a block (a slow one). */
static int ext2_symlink(struct inode *dir, const struct qstr *name, const char *target)
{
	struct ext2_sb_info *sbi = EXT2_ISB(dir);
	size_t len = strlen(target);
	struct buffer_head *bh;
	struct inode *inode;
	uint32_t block;
	int r;

	if (len >= sbi->bsize)
		return -ENAMETOOLONG;
	r = check_change(dir);
	if (r == 0)
		r = ext2_new_inode(dir, S_IFLNK | 0777, &inode);
	if (r < 0)
		return r;
	inode->i_size = (loff_t)len;
	if (len < sizeof(EXT2_I(inode)->i_data)) {
		memcpy(EXT2_I(inode)->i_data, target, len);
	} else {
		r = ext2_bmap(inode, 0, true, &block);
		bh = r == 0 ? ext2_bread(sbi, block) : NULL;
		if (r == 0 && !bh)
			r = -EIO;
		if (bh) {
			memcpy(bh->b_data, target, len);
			mark_buffer_dirty(bh);
			brelse(bh);
		}
	}
	if (r == 0)
		r = ext2_write_inode(inode);
	if (r == 0)
		r = ext2_add_entry(dir, name, inode);
	if (r < 0)
		inode->i_nlink = 0;
	iput(inode);
	return r;
}

static int ext2_link(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	int r = check_change(dir);

	if (r == 0 && inode->i_nlink >= EXT2_LINK_MAX)
		r = -EMLINK;
	if (r == 0)
		r = ext2_add_entry(dir, name, inode);
	if (r < 0)
		return r;
	inode_inc_link(inode);
	return ext2_write_inode(inode);
}

/* Remove name, which names inode (a sanity check: the entry must still point at it). */
static int remove_name(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	struct ext2_dir_entry_2 *de, *prev;
	struct buffer_head *bh;
	int r = ext2_find_entry(dir, name, &bh, &de, &prev);

	if (r < 0)
		return r;
	if (de->inode != inode->i_ino) {
		brelse(bh);
		return -ENOENT;
	}
	r = ext2_delete_entry(dir, bh, de, prev);
	brelse(bh);
	return r;
}

static int ext2_unlink(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	int r = EXT2_ISB(dir)->rdonly ? -EROFS : remove_name(dir, name, inode);

	if (r < 0)
		return r;
	inode_dec_link(inode);          /* the last: freed at the caller's iput, or the last close */
	return ext2_write_inode(inode);
}

static int ext2_rmdir(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	int r = EXT2_ISB(dir)->rdonly ? -EROFS : ext2_empty_dir(inode);

	if (r < 0)
		return r;
	if (r == 0)
		return -ENOTEMPTY;
	r = remove_name(dir, name, inode);
	if (r < 0)
		return r;
	inode_dec_link(inode);          /* its name */
	inode_dec_link(inode);          /* its "." */
	inode->i_size = 0;
	ext2_write_inode(inode);
	inode_dec_link(dir);            /* its ".." */
	return ext2_write_inode(dir);
}

/* The inode a name replaced by rename loses that name (a directory, its "." and its parent's link). */
static void drop_victim(struct inode *new_dir, uint32_t ino)
{
	struct inode *v;

	if (ext2_iget(new_dir->i_mnt, ino, &v) < 0)
		return;
	inode_dec_link(v);
	if (S_ISDIR(v->i_mode)) {
		inode_dec_link(v);
		inode_dec_link(new_dir);
		v->i_size = 0;
	}
	ext2_write_inode(v);
	iput(v);                        /* the VFS holds it too: its iput frees it */
}

/* new_name in new_dir now names inode: an existing entry is pointed at it, or one is added. */
static int point_new_name(struct inode *new_dir, const struct qstr *new_name, struct inode *inode)
{
	struct ext2_dir_entry_2 *de;
	struct buffer_head *bh;
	uint32_t victim;
	int r = ext2_find_entry(new_dir, new_name, &bh, &de, NULL);

	if (r == -ENOENT)
		return ext2_add_entry(new_dir, new_name, inode);
	if (r < 0)
		return r;
	victim = de->inode;
	de->inode = inode->i_ino;
	ext2_set_de_type(EXT2_ISB(new_dir), de, inode->i_mode);
	mark_buffer_dirty(bh);
	brelse(bh);
	drop_victim(new_dir, victim);
	inode_touch(new_dir, true, true);
	return ext2_write_inode(new_dir);
}

static int ext2_rename(struct inode *old_dir, const struct qstr *old_name,
		       struct inode *new_dir, const struct qstr *new_name)
{
	struct ext2_dir_entry_2 *de, *ode;
	struct buffer_head *bh, *obh;
	struct inode *inode;
	int r = check_change(new_dir);

	if (r == 0)
		r = ext2_find_entry(old_dir, old_name, &obh, &ode, NULL);
	if (r < 0)
		return r;
	r = ext2_iget(old_dir->i_mnt, ode->inode, &inode);
	brelse(obh);
	if (r < 0)
		return r;
	if (ext2_find_entry(new_dir, new_name, &bh, &de, NULL) == 0) {
		bool same = de->inode == inode->i_ino;

		brelse(bh);
		if (same)
			goto out;       /* two names of one file: POSIX says do nothing */
	}
	if (S_ISDIR(inode->i_mode) && old_dir != new_dir && new_dir->i_nlink >= EXT2_LINK_MAX)
		r = -EMLINK;
	if (r == 0)
		r = point_new_name(new_dir, new_name, inode);
	if (r == 0)
		r = remove_name(old_dir, old_name, inode);      /* found again: the add may have moved blocks */
	if (r == 0 && S_ISDIR(inode->i_mode) && old_dir != new_dir) {
		r = ext2_set_dotdot(inode, new_dir->i_ino);
		inode_dec_link(old_dir);
		inode_inc_link(new_dir);
		ext2_write_inode(old_dir);
		ext2_write_inode(new_dir);
	}
	inode_touch(inode, false, true);
	ext2_write_inode(inode);
out:
	iput(inode);
	return r;
}

const struct inode_operations ext2_dir_iops = {
	.lookup = ext2_lookup,
	.create = ext2_create,
	.symlink = ext2_symlink,
	.link = ext2_link,
	.unlink = ext2_unlink,
	.rmdir = ext2_rmdir,
	.rename = ext2_rename,
	.evict = ext2_evict,
	.write_inode = ext2_setattr,
};

const struct inode_operations ext2_special_iops = {
	.evict = ext2_evict,
	.write_inode = ext2_setattr,
};
