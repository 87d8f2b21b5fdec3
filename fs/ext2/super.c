/*
 * ext2's superblock: mount (read and check the superblock and the group
 * descriptors, refuse what is corrupt with -EINVAL), remount, umount,
 * statfs, writing back dirty inodes (sync_fs), and lock_super(), the lock
 * over the bitmaps and the counts.
 *
 * lock_super() is the BKL site the 2004 article names: "the ext2 filesystem
 * uses the BKL to protect modifications to the superblock". In Linux 2.6.6
 * the VFS called ext2's write_super() and remount with lock_kernel() held,
 * and ext2 took the superblock's own semaphore, lock_super(), inside it. So
 * does smpix here: the BKL, then sbi->s_lock. The 2.6.39 build has no BKL,
 * and lock_kernel_or() takes ext2_super_mutex instead, a lock of ext2's own
 * (Linux 2.6.39 dropped the BKL from ext2's superblock paths altogether and
 * kept lock_super; the mutex keeps the two builds' shapes alike).
 */
#include "fs/ext2/ext2.h"

#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/locking/bkl.h"
#include "kernel/mm/kheap.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/stat.h"
#include "kernel/uapi/statfs.h"

DEFINE_OWN_MUTEX(ext2_super_mutex);

/* Every mounted ext2 instance, so a device is never mounted twice (two caches of one bitmap). */
static struct list_head ext2_mounted = LIST_HEAD_INIT(ext2_mounted);
static spinlock_t ext2_mounted_lock = SPINLOCK_INIT("ext2 mounted");

void lock_super(struct ext2_sb_info *sbi)
{
	lock_kernel_or(&ext2_super_mutex);      /* 2.6.6: the superblock is changed under the BKL */
	mutex_lock(&sbi->s_lock);
}

void unlock_super(struct ext2_sb_info *sbi)
{
	mutex_unlock(&sbi->s_lock);
	unlock_kernel_or(&ext2_super_mutex);
}

void ext2_error(struct ext2_sb_info *sbi, const char *fn, const char *what, uint32_t n)
{
	printk("EXT2-fs error (device %u:%u): %s: %s %u\n", SMPIX_MAJOR(sbi->dev), SMPIX_MINOR(sbi->dev),
	       fn, what, n);
	sbi->errors_reported = true;
}

/* Does group g hold a backup of the superblock (sparse_super: 0, 1 and powers of 3, 5, 7)? */
static bool group_has_super(struct ext2_sb_info *sbi, uint32_t g)
{
	if (g <= 1 || !(sbi->es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	for (uint32_t base = 3; base <= 7; base += 2) {
		uint32_t p = base;

		while (p < g)
			p *= base;
		if (p == g)
			return true;
	}
	return false;
}

/* The source of mount(2), "/dev/hda1": a block device node, its device number. */
static int source_dev(const char *source, dev_t *dev)
{
	struct walk_start s;
	struct inode *inode;
	int r = walk_start_get(AT_FDCWD, source, &s);

	if (r < 0)
		return r;
	r = path_walk(&s, source, LOOKUP_FOLLOW, &inode);
	walk_start_put(&s);
	if (r < 0)
		return r;
	if (!S_ISBLK(inode->i_mode))
		r = -ENOTBLK;
	*dev = inode->i_rdev;
	iput(inode);
	return r;
}

/* The superblock's numbers, checked before anything trusts them: -EINVAL if they cannot be. */
static int check_super(struct ext2_sb_info *sbi, struct ext2_super_block *es, bool rdonly)
{
	if (es->s_magic != EXT2_SUPER_MAGIC || es->s_rev_level > 1 || es->s_log_block_size > 2)
		return -EINVAL;
	if (es->s_feature_incompat & ~EXT2_FEATURE_INCOMPAT_SUPP)
		return -EINVAL;         /* Linux: "couldn't mount because of unsupported optional features" */
	if (!rdonly && (es->s_feature_ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP))
		return -EINVAL;         /* it may be read, not written */
	sbi->bsize = 1024u << es->s_log_block_size;
	sbi->addr_per_block = sbi->bsize / 4;
	sbi->inode_size = es->s_rev_level ? es->s_inode_size : EXT2_GOOD_OLD_INODE_SIZE;
	sbi->first_ino = es->s_rev_level ? es->s_first_ino : EXT2_GOOD_OLD_FIRST_INO;
	if (sbi->inode_size < EXT2_GOOD_OLD_INODE_SIZE || sbi->inode_size > sbi->bsize ||
	    (sbi->inode_size & (sbi->inode_size - 1)) || sbi->first_ino <= EXT2_ROOT_INO)
		return -EINVAL;
	sbi->blocks_per_group = es->s_blocks_per_group;
	sbi->inodes_per_group = es->s_inodes_per_group;
	sbi->first_data_block = es->s_first_data_block;
	sbi->blocks_count = es->s_blocks_count;
	sbi->inodes_count = es->s_inodes_count;
	if (!sbi->blocks_per_group || sbi->blocks_per_group > 8 * sbi->bsize || !sbi->inodes_per_group ||
	    sbi->inodes_per_group > 8 * sbi->bsize || sbi->first_data_block != (sbi->bsize == 1024) ||
	    sbi->blocks_count <= sbi->first_data_block)
		return -EINVAL;
	sbi->groups = (sbi->blocks_count - sbi->first_data_block + sbi->blocks_per_group - 1) /
		      sbi->blocks_per_group;
	if ((uint64_t)sbi->groups * sbi->inodes_per_group != sbi->inodes_count ||
	    sbi->first_ino >= sbi->inodes_count)
		return -EINVAL;
	sbi->inodes_per_block = sbi->bsize / sbi->inode_size;
	sbi->itb_per_group = (sbi->inodes_per_group + sbi->inodes_per_block - 1) / sbi->inodes_per_block;
	sbi->gd_blocks = (sbi->groups * (uint32_t)sizeof(struct ext2_group_desc) + sbi->bsize - 1) / sbi->bsize;
	sbi->filetype = es->s_feature_incompat & EXT2_FEATURE_INCOMPAT_FILETYPE;
	return 0;
}

/* Linux's ext2_check_descriptors(): each group's bitmaps and inode table inside the group. */
static int check_descriptors(struct ext2_sb_info *sbi)
{
	uint32_t free_blocks = 0, free_inodes = 0;

	for (uint32_t g = 0; g < sbi->groups; g++) {
		struct ext2_group_desc *gd = ext2_gd(sbi, g);
		uint32_t first = sbi->first_data_block + g * sbi->blocks_per_group;
		uint32_t last = g == sbi->groups - 1 ? sbi->blocks_count - 1 : first + sbi->blocks_per_group - 1;

		if (gd->bg_block_bitmap < first || gd->bg_block_bitmap > last ||
		    gd->bg_inode_bitmap < first || gd->bg_inode_bitmap > last ||
		    gd->bg_inode_table < first || gd->bg_inode_table + sbi->itb_per_group - 1 > last ||
		    gd->bg_free_blocks_count > sbi->blocks_per_group ||
		    gd->bg_free_inodes_count > sbi->inodes_per_group) {
			ext2_error(sbi, __func__, "bad group descriptor, group", g);
			return -EINVAL;
		}
		free_blocks += gd->bg_free_blocks_count;
		free_inodes += gd->bg_free_inodes_count;
	}
	/* The superblock's totals are the sum of the groups' (e2fsck makes them so). */
	sbi->es->s_free_blocks_count = free_blocks;
	sbi->es->s_free_inodes_count = free_inodes;
	return 0;
}

/* Blocks that are not data: statfs leaves them out of f_blocks, as Linux's ext2_statfs. */
static uint32_t count_overhead(struct ext2_sb_info *sbi)
{
	uint32_t o = sbi->first_data_block;

	for (uint32_t g = 0; g < sbi->groups; g++) {
		if (group_has_super(sbi, g))
			o += 1 + sbi->gd_blocks + sbi->es->s_reserved_gdt_blocks;
		o += 2 + sbi->itb_per_group;
	}
	return o;
}

static void put_descriptors(struct ext2_sb_info *sbi)
{
	for (uint32_t i = 0; sbi->gd_bh && i < sbi->gd_blocks; i++)
		brelse(sbi->gd_bh[i]);
	kfree(sbi->gd_bh);
	brelse(sbi->sbh);
}

static int read_descriptors(struct ext2_sb_info *sbi)
{
	sbi->gd_bh = kzalloc(sbi->gd_blocks * sizeof(*sbi->gd_bh));
	if (!sbi->gd_bh)
		return -ENOMEM;
	for (uint32_t i = 0; i < sbi->gd_blocks; i++) {
		sbi->gd_bh[i] = ext2_bread(sbi, sbi->first_data_block + 1 + i);
		if (!sbi->gd_bh[i])
			return -EIO;
	}
	return check_descriptors(sbi);
}

/* Read the superblock in the file system's block size (it is block 1 of 1 KiB, or inside block 0). */
static int read_super(struct ext2_sb_info *sbi, bool rdonly)
{
	struct buffer_head *bh = bread(sbi->dev, 1, 1024);
	int r;

	if (!bh)
		return -EIO;
	r = check_super(sbi, (struct ext2_super_block *)bh->b_data, rdonly);
	brelse(bh);
	if (r < 0)
		return r;
	if (sbi->bsize == 1024) {
		sbi->sbh = ext2_bread(sbi, 1);
		sbi->es = sbi->sbh ? (struct ext2_super_block *)sbi->sbh->b_data : NULL;
	} else {
		sbi->sbh = ext2_bread(sbi, 0);
		sbi->es = sbi->sbh ? (struct ext2_super_block *)(sbi->sbh->b_data + EXT2_SUPER_OFFSET) : NULL;
	}
	if (!sbi->sbh)
		return -EIO;
	return check_super(sbi, sbi->es, rdonly);      /* again: the copy kept is the one checked */
}

static bool claim_device(struct ext2_sb_info *sbi)
{
	struct list_head *pos;
	bool busy = false;

	spin_lock(&ext2_mounted_lock);
	list_for_each(pos, &ext2_mounted)
		if (list_entry(pos, struct ext2_sb_info, mounted)->dev == sbi->dev)
			busy = true;
	if (!busy)
		list_add_tail(&sbi->mounted, &ext2_mounted);
	spin_unlock(&ext2_mounted_lock);
	return !busy;
}

static void release_device(struct ext2_sb_info *sbi)
{
	spin_lock(&ext2_mounted_lock);
	list_del(&sbi->mounted);
	spin_unlock(&ext2_mounted_lock);
}

static int mount_root_inode(struct mount *m)
{
	struct inode *root;
	int r = ext2_iget(m, EXT2_ROOT_INO, &root);

	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	if (!S_ISDIR(root->i_mode)) {
		iput(root);
		return -EINVAL;
	}
	m->root = root;
	return 0;
}

static void free_inodes(struct ext2_sb_info *sbi);

static int ext2_fill(struct mount *m)
{
	struct ext2_sb_info *sbi = kzalloc(sizeof(*sbi));
	int r;

	if (!sbi)
		return -ENOMEM;
	mutex_init(&sbi->s_lock, "ext2 lock_super");
	spin_lock_init(&sbi->icache_lock, "ext2 icache");
	list_init(&sbi->inodes);
	sbi->rdonly = m->rdonly;
	m->fs_private = sbi;
	r = source_dev(m->source, &sbi->dev);
	if (r < 0)
		goto out_free;
	if (!claim_device(sbi)) {
		r = -EBUSY;
		goto out_free;
	}
	r = read_super(sbi, m->rdonly);
	if (r == 0)
		r = read_descriptors(sbi);
	if (r == 0) {
		sbi->overhead = count_overhead(sbi);
		r = mount_root_inode(m);
	}
	if (r < 0)
		goto out_put;
	if (!sbi->rdonly) {
		lock_super(sbi);
		sbi->es->s_mnt_count++;
		sbi->es->s_mtime = inode_time_now();
		mark_buffer_dirty(sbi->sbh);
		unlock_super(sbi);
	}
	return 0;
out_put:
	free_inodes(sbi);
	put_descriptors(sbi);
	release_device(sbi);
out_free:
	kfree(sbi);
	m->fs_private = NULL;
	return r;
}

/* Free every inode in memory (nothing refers to them: umount, or a failed mount). */
static void free_inodes(struct ext2_sb_info *sbi)
{
	while (!list_empty(&sbi->inodes)) {
		struct ext2_inode_info *ei = list_entry(sbi->inodes.next, struct ext2_inode_info, link);
		struct inode *inode = ei->inode;

		list_del(&ei->link);
		if (!sbi->rdonly && inode->i_nlink)
			ext2_write_inode(inode);        /* times the VFS changed (utimes, chmod) */
		inode->i_count = 0;
		kfree(ei);
		inode_free(inode);
	}
}

static void ext2_kill(struct mount *m)
{
	struct ext2_sb_info *sbi = EXT2_SB(m);

	free_inodes(sbi);
	if (!sbi->rdonly) {
		lock_super(sbi);
		sbi->es->s_wtime = inode_time_now();
		mark_buffer_dirty(sbi->sbh);
		unlock_super(sbi);
	}
	sync_blockdev(sbi->dev);
	put_descriptors(sbi);
	invalidate_bdev(sbi->dev);
	release_device(sbi);
	kfree(sbi);
}

/*
 * The inodes whose access time a read changed (I_DIRTY, fs/atime.c) into
 * their inode-table buffers. The list is walked holding a reference to the
 * inode in hand, so it stays on the list (only an eviction takes one off)
 * while icache_lock is let go to sleep on its i_mutex.
 */
/* A reference to inode if it is dirty and linked (an unlinked one may be on its way out). Needs icache_lock. */
static bool grab_dirty(struct inode *inode)
{
	bool take;

	spin_lock(&inode->i_lock);
	take = (inode->i_flags & I_DIRTY) && inode->i_nlink;
	if (take)
		inode->i_count++;
	spin_unlock(&inode->i_lock);
	if (take)
		mount_ref_get(inode->i_mnt);
	return take;
}

static void ext2_sync_fs(struct mount *m)
{
	struct ext2_sb_info *sbi = EXT2_SB(m);
	struct inode *inode, *prev = NULL;
	struct list_head *pos = &sbi->inodes;

	for (;;) {
		inode = NULL;
		spin_lock(&sbi->icache_lock);
		for (pos = pos->next; pos != &sbi->inodes; pos = pos->next) {
			struct inode *i = list_entry(pos, struct ext2_inode_info, link)->inode;

			if (grab_dirty(i)) {
				inode = i;
				break;
			}
		}
		spin_unlock(&sbi->icache_lock);
		if (prev)
			iput(prev);
		if (!inode)
			return;
		mutex_lock(&inode->i_mutex);
		if (READ_ONCE(inode->i_flags) & I_DIRTY)
			ext2_write_inode(inode);
		mutex_unlock(&inode->i_mutex);
		prev = inode;
	}
}

/* An unlinked file still open: read-only, its blocks could not be freed at its last close. */
static bool has_orphans(struct ext2_sb_info *sbi)
{
	struct list_head *pos;
	bool found = false;

	spin_lock(&sbi->icache_lock);
	list_for_each(pos, &sbi->inodes)
		if (READ_ONCE(list_entry(pos, struct ext2_inode_info, link)->inode->i_nlink) == 0)
			found = true;
	spin_unlock(&sbi->icache_lock);
	return found;
}

/*
 * mount -o remount (Linux 2.6's ext2_remount, called under lock_kernel() by
 * do_remount_sb, as write_super was). The VFS has made m read-only already
 * and seen no file open for writing. Read-only: the dirty inodes and the
 * superblock go to the disk, then every change is -EROFS. Writable again:
 * as a fresh rw mount does, the mount count and time move.
 */
static int ext2_remount(struct mount *m, bool rdonly)
{
	struct ext2_sb_info *sbi = EXT2_SB(m);

	if (rdonly) {
		if (has_orphans(sbi))
			return -EBUSY;
		ext2_sync_fs(m);
		lock_super(sbi);
		sbi->es->s_wtime = inode_time_now();
		mark_buffer_dirty(sbi->sbh);
		WRITE_ONCE(sbi->rdonly, true);
		unlock_super(sbi);
		return sync_blockdev(sbi->dev);
	}
	if (sbi->es->s_feature_ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP)
		return -EROFS;          /* Linux: "couldn't remount RDWR because of unsupported optional features" */
	lock_super(sbi);
	sbi->es->s_mnt_count++;
	sbi->es->s_mtime = inode_time_now();
	mark_buffer_dirty(sbi->sbh);
	WRITE_ONCE(sbi->rdonly, false);
	unlock_super(sbi);
	return 0;
}

static int ext2_statfs(struct mount *m, struct statfs64 *st)
{
	struct ext2_sb_info *sbi = EXT2_SB(m);
	struct ext2_super_block *es = sbi->es;

	lock_super(sbi);
	st->f_bsize = st->f_frsize = sbi->bsize;
	st->f_blocks = sbi->blocks_count - sbi->overhead;
	st->f_bfree = es->s_free_blocks_count;
	st->f_bavail = st->f_bfree > es->s_r_blocks_count ? st->f_bfree - es->s_r_blocks_count : 0;
	st->f_files = sbi->inodes_count;
	st->f_ffree = es->s_free_inodes_count;
	st->f_namelen = EXT2_NAME_LEN;
	st->f_fsid[0] = (int32_t)sbi->dev;
	if (sbi->rdonly)
		st->f_flags |= 1;               /* ST_RDONLY */
	unlock_super(sbi);
	return 0;
}

const struct filesystem_type ext2_type = {
	.name = "ext2", .magic = EXT2_SUPER_MAGIC, .fill = ext2_fill, .kill = ext2_kill,
	.statfs = ext2_statfs, .remount = ext2_remount, .sync_fs = ext2_sync_fs,
	.rdonly_ok = true, .requires_dev = true,
};
