/*
 * ext2's inodes: reading one from the inode table (ext2_iget), writing it
 * back, the block map (twelve direct blocks, then single, double and triple
 * indirect ones: Linux 2.6's fs/ext2/inode.c, ext2_get_block), truncation,
 * and the eviction of an unlinked inode at its last close.
 *
 * Every inode read stays in memory (on sbi->inodes) until umount, as ramfs
 * keeps its own: a second lookup finds the same struct inode, so its
 * i_mutex and i_size are one. Only an unlinked one is evicted, at its last
 * iput(), and then its blocks and its number are freed on the disk.
 * ext2 writes an inode back into its inode-table buffer whenever it changes
 * it; the buffer cache writes the buffer (sync, the flusher, power off).
 */
#include "fs/ext2/ext2.h"

#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/stat.h"

/* The buffer and the place in it of inode ino: -EUCLEAN for a number outside the file system. */
static int raw_inode(struct ext2_sb_info *sbi, uint32_t ino, struct buffer_head **bhp, struct ext2_inode **raw)
{
	uint32_t g, index, block;

	if (ino < 1 || ino > sbi->inodes_count || (ino < sbi->first_ino && ino != EXT2_ROOT_INO)) {
		ext2_error(sbi, __func__, "bad inode number", ino);
		return -EUCLEAN;
	}
	g = (ino - 1) / sbi->inodes_per_group;
	index = (ino - 1) % sbi->inodes_per_group;
	block = ext2_gd(sbi, g)->bg_inode_table + index / sbi->inodes_per_block;
	*bhp = ext2_bread(sbi, block);
	if (!*bhp)
		return -EIO;
	*raw = (struct ext2_inode *)((*bhp)->b_data + (index % sbi->inodes_per_block) * sbi->inode_size);
	return 0;
}

/*
 * The largest file: what the block map reaches (16 GiB with 1 KiB blocks),
 * and no more 512-byte units than i_blocks counts (Linux 2.6's
 * ext2_max_size() also counts the indirect blocks there: it matters only
 * with 4 KiB blocks, past 2 TiB). Past 2 GiB - 1 the size needs
 * i_size_high, a revision 1 field (large_file): revision 0 stops there.
 */
loff_t ext2_max_size(struct ext2_sb_info *sbi)
{
	uint64_t apb = sbi->addr_per_block;
	uint64_t blocks = EXT2_NDIR_BLOCKS + apb + apb * apb + apb * apb * apb;
	uint64_t by_map = blocks * sbi->bsize, by_count = (0xFFFFFFFFull / (sbi->bsize / 512)) * sbi->bsize;

	if (sbi->es->s_rev_level == EXT2_GOOD_OLD_REV)
		return EXT2_MAX_NON_LFS;
	return (loff_t)MIN(by_map, by_count);
}

/* A device number as ext2 keeps it in i_block[0] (old, 8+8 bits) or i_block[1] (new). */
uint32_t ext2_encode_dev(uint32_t rdev, uint32_t *data)
{
	uint32_t major = SMPIX_MAJOR(rdev), minor = SMPIX_MINOR(rdev);

	if (major < 256 && minor < 256) {
		data[0] = (major << 8) | minor;
		data[1] = 0;
	} else {
		data[0] = 0;
		data[1] = (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
	}
	return rdev;
}

static uint32_t decode_dev(const uint32_t *data)
{
	if (data[0])
		return SMPIX_MKDEV((data[0] >> 8) & 0xff, data[0] & 0xff);
	return SMPIX_MKDEV((data[1] & 0xfff00) >> 8, (data[1] & 0xff) | ((data[1] >> 12) & 0xfff00));
}

/* Does the inode own blocks (a fast symlink and a device node keep other things in i_block)? */
static bool has_blocks(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	uint32_t acl = ei->i_file_acl ? EXT2_ISB(inode)->bsize / 512 : 0;

	if (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode))
		return true;
	return S_ISLNK(inode->i_mode) && ei->i_blocks > acl;
}

void ext2_set_ops(struct inode *inode)
{
	switch (inode->i_mode & S_IFMT) {
	case S_IFDIR:
		inode->i_op = &ext2_dir_iops;
		inode->i_fop = &ext2_dir_fops;
		break;
	case S_IFREG:
		inode->i_op = &ext2_file_iops;
		inode->i_fop = &ext2_file_fops;
		break;
	case S_IFLNK:
		inode->i_op = &ext2_symlink_iops;
		break;
	default:                        /* device nodes, FIFOs, sockets: open() finds their fops */
		inode->i_op = &ext2_special_iops;
		break;
	}
}

struct inode *ext2_inode_new_mem(struct mount *m, uint32_t ino, uint32_t mode)
{
	struct ext2_sb_info *sbi = EXT2_SB(m);
	struct inode *inode = inode_alloc(m, mode);
	struct ext2_inode_info *ei = kzalloc(sizeof(*ei));

	if (!inode || !ei) {
		kfree(ei);
		if (inode) {
			inode->i_count = 0;
			inode_free(inode);
			mount_ref_put(m);       /* inode_alloc's, without an iput */
		}
		return NULL;
	}
	ei->inode = inode;
	inode->i_private = ei;
	inode->i_ino = ino;
	spin_lock(&sbi->icache_lock);
	list_add_tail(&ei->link, &sbi->inodes);
	spin_unlock(&sbi->icache_lock);
	return inode;
}

/* The inode in memory, referenced; NULL if it is not; *stale if it is but unlinked. Needs icache_lock. */
static struct inode *find_cached(struct ext2_sb_info *sbi, uint32_t ino, bool *stale)
{
	struct list_head *pos;

	*stale = false;
	list_for_each(pos, &sbi->inodes) {
		struct inode *inode = list_entry(pos, struct ext2_inode_info, link)->inode;

		if (inode->i_ino != ino)
			continue;
		spin_lock(&inode->i_lock);
		*stale = inode->i_nlink == 0;
		if (!*stale)
			inode->i_count++;
		spin_unlock(&inode->i_lock);
		if (*stale)
			return NULL;
		mount_ref_get(inode->i_mnt);
		return inode;
	}
	return NULL;
}

/* What a directory entry points at must look like an inode: else -EUCLEAN. */
static int check_raw(struct ext2_sb_info *sbi, const struct ext2_inode *raw)
{
	uint32_t type = raw->i_mode & S_IFMT;
	bool fast_link = type == S_IFLNK && raw->i_blocks == (raw->i_file_acl ? sbi->bsize / 512 : 0);

	if (raw->i_links_count == 0 || raw->i_dtime)
		return -EUCLEAN;        /* a deleted inode still named */
	if (type != S_IFREG && type != S_IFDIR && type != S_IFLNK && type != S_IFCHR &&
	    type != S_IFBLK && type != S_IFIFO && type != S_IFSOCK)
		return -EUCLEAN;
	if (type == S_IFDIR && (raw->i_size % sbi->bsize || raw->i_size == 0))
		return -EUCLEAN;
	if ((type == S_IFREG || type == S_IFDIR || (type == S_IFLNK && !fast_link)))
		for (int i = 0; i < EXT2_N_BLOCKS; i++)
			if (raw->i_block[i] && !ext2_block_ok(sbi, raw->i_block[i]))
				return -EUCLEAN;
	return 0;
}

/*
 * Owners past 16 bits: Linux keeps the high halves in the inode's
 * OS-dependent bytes (osd2's l_i_uid_high, l_i_gid_high, at 4 and 6).
 */
#define OSD2_UID_HIGH 4
#define OSD2_GID_HIGH 6

static uint32_t get_id(uint16_t low, const uint8_t *osd2, int at)
{
	return low | (uint32_t)(osd2[at] | osd2[at + 1] << 8) << 16;
}

static void put_id(uint32_t id, uint16_t *low, uint8_t *osd2, int at)
{
	*low = (uint16_t)id;
	osd2[at] = (uint8_t)(id >> 16);
	osd2[at + 1] = (uint8_t)(id >> 24);
}

static void fill_inode(struct inode *inode, const struct ext2_inode *raw)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_sb_info *sbi = EXT2_ISB(inode);

	inode->i_mode = raw->i_mode;
	inode->i_nlink = raw->i_links_count;
	inode->i_size = raw->i_size;
	if (S_ISREG(inode->i_mode))
		inode->i_size |= (loff_t)raw->i_size_high << 32;
	inode->i_atime = raw->i_atime;
	inode->i_mtime = raw->i_mtime;
	inode->i_ctime = raw->i_ctime;
	inode->i_uid = get_id(raw->i_uid, raw->i_osd2, OSD2_UID_HIGH);
	inode->i_gid = get_id(raw->i_gid, raw->i_osd2, OSD2_GID_HIGH);
	memcpy(ei->i_data, raw->i_block, sizeof(ei->i_data));
	ei->i_blocks = raw->i_blocks;
	ei->i_flags = raw->i_flags;
	ei->i_file_acl = raw->i_file_acl;
	ei->i_generation = raw->i_generation;
	ei->i_block_group = (inode->i_ino - 1) / sbi->inodes_per_group;
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		inode->i_rdev = decode_dev(ei->i_data);
	ext2_set_ops(inode);
}

int ext2_iget(struct mount *m, uint32_t ino, struct inode **out)
{
	struct ext2_sb_info *sbi = EXT2_SB(m);
	struct buffer_head *bh;
	struct ext2_inode *raw;
	struct inode *inode, *other;
	bool stale;
	int r;

	spin_lock(&sbi->icache_lock);
	inode = find_cached(sbi, ino, &stale);
	spin_unlock(&sbi->icache_lock);
	if (inode || stale) {
		*out = inode;
		return inode ? 0 : -ESTALE;
	}
	r = raw_inode(sbi, ino, &bh, &raw);
	if (r < 0)
		return r;
	r = check_raw(sbi, raw);
	if (r < 0) {
		ext2_error(sbi, __func__, "bad inode", ino);
		brelse(bh);
		return r;
	}
	inode = inode_alloc(m, raw->i_mode);
	if (inode)
		inode->i_private = kzalloc(sizeof(struct ext2_inode_info));
	if (!inode || !inode->i_private) {
		brelse(bh);
		if (inode) {
			inode->i_count = 0;
			inode_free(inode);
			mount_ref_put(m);
		}
		return -ENOMEM;
	}
	inode->i_ino = ino;
	EXT2_I(inode)->inode = inode;
	fill_inode(inode, raw);
	brelse(bh);
	/* Another task may have read it meanwhile (two names of one file): keep the first. */
	spin_lock(&sbi->icache_lock);
	other = find_cached(sbi, ino, &stale);
	if (!other && !stale)
		list_add_tail(&EXT2_I(inode)->link, &sbi->inodes);
	spin_unlock(&sbi->icache_lock);
	if (other || stale) {
		kfree(inode->i_private);
		inode->i_count = 0;
		inode_free(inode);
		mount_ref_put(m);
		inode = other;
	}
	*out = inode;
	return inode ? 0 : -ESTALE;
}

/*
 * The first file past 2 GiB - 1 sets the large_file feature in the
 * superblock, so that an older kernel, which would cut the size, mounts the
 * file system read-only (Linux 2.6.6's ext2_update_inode, under the BKL there).
 */
static void note_large_file(struct ext2_sb_info *sbi)
{
	if (sbi->es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_LARGE_FILE)
		return;
	lock_super(sbi);
	sbi->es->s_feature_ro_compat |= EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
	mark_buffer_dirty(sbi->sbh);
	unlock_super(sbi);
}

int ext2_write_inode(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct buffer_head *bh;
	struct ext2_inode *raw;
	int r;

	if (READ_ONCE(sbi->rdonly))
		return 0;
	/* Cleared before the fields are copied: an atime set meanwhile marks it dirty again. */
	spin_lock(&inode->i_lock);
	inode->i_flags &= ~I_DIRTY;
	spin_unlock(&inode->i_lock);
	r = raw_inode(sbi, inode->i_ino, &bh, &raw);
	if (r < 0)
		return r;
	if (raw->i_links_count == 0)
		memset(raw, 0, sbi->inode_size);        /* new or freed: no old bytes past the 128 */
	raw->i_mode = (uint16_t)inode->i_mode;
	put_id(inode->i_uid, &raw->i_uid, raw->i_osd2, OSD2_UID_HIGH);     /* chown (fs/attr.c) */
	put_id(inode->i_gid, &raw->i_gid, raw->i_osd2, OSD2_GID_HIGH);
	raw->i_size = (uint32_t)inode->i_size;
	raw->i_size_high = S_ISREG(inode->i_mode) ? (uint32_t)((uint64_t)inode->i_size >> 32) : 0;
	raw->i_atime = inode->i_atime;
	raw->i_mtime = inode->i_mtime;
	raw->i_ctime = inode->i_ctime;
	raw->i_dtime = ei->i_dtime;
	raw->i_links_count = (uint16_t)inode->i_nlink;
	raw->i_blocks = ei->i_blocks;
	raw->i_flags = ei->i_flags;
	raw->i_generation = ei->i_generation;
	raw->i_file_acl = ei->i_file_acl;
	memcpy(raw->i_block, ei->i_data, sizeof(raw->i_block));
	mark_buffer_dirty(bh);
	brelse(bh);
	if (inode->i_size > EXT2_MAX_NON_LFS)
		note_large_file(sbi);
	return 0;
}

/* i_op->write_inode: chmod or utimensat changed the inode in memory; into its buffer, under its i_mutex. */
int ext2_setattr(struct inode *inode)
{
	int r;

	mutex_lock(&inode->i_mutex);
	r = ext2_write_inode(inode);
	mutex_unlock(&inode->i_mutex);
	return r;
}

/* ---- the block map ---------------------------------------------------------------- */

/* Where file block lblock hangs: offsets at each level from i_block[]; the depth (1..4), or -EFBIG. */
static int block_path(struct ext2_sb_info *sbi, uint32_t lblock, uint32_t off[4])
{
	uint64_t apb = sbi->addr_per_block, b = lblock;

	if (b < EXT2_NDIR_BLOCKS) {
		off[0] = (uint32_t)b;
		return 1;
	}
	b -= EXT2_NDIR_BLOCKS;
	if (b < apb) {
		off[0] = EXT2_IND_BLOCK;
		off[1] = (uint32_t)b;
		return 2;
	}
	b -= apb;
	if (b < apb * apb) {
		off[0] = EXT2_DIND_BLOCK;
		off[1] = (uint32_t)(b / apb);
		off[2] = (uint32_t)(b % apb);
		return 3;
	}
	b -= apb * apb;
	if (b < apb * apb * apb) {
		off[0] = EXT2_TIND_BLOCK;
		off[1] = (uint32_t)(b / (apb * apb));
		off[2] = (uint32_t)(b / apb % apb);
		off[3] = (uint32_t)(b % apb);
		return 4;
	}
	return -EFBIG;
}

/* A new block for inode, zeroed in the cache (an indirect block must read as "no blocks"). */
static int alloc_zeroed(struct inode *inode, uint32_t *out)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct ext2_inode_info *ei = EXT2_I(inode);
	uint32_t goal = ei->i_next_goal ? ei->i_next_goal :
			sbi->first_data_block + ei->i_block_group * sbi->blocks_per_group;
	struct buffer_head *bh;
	int r = ext2_new_block(sbi, goal, out);

	if (r < 0)
		return r;
	bh = getblk(sbi->dev, *out, sbi->bsize);
	if (!bh) {
		ext2_free_block(sbi, *out);
		return -ENOMEM;
	}
	memset(bh->b_data, 0, sbi->bsize);
	set_buffer_uptodate(bh);
	mark_buffer_dirty(bh);
	brelse(bh);
	ei->i_blocks += sbi->bsize / 512;
	ei->i_next_goal = *out + 1;
	return 0;
}

int ext2_bmap(struct inode *inode, uint32_t lblock, bool create, uint32_t *out)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct buffer_head *bh = NULL;
	uint32_t off[4], *slot;
	int depth = block_path(sbi, lblock, off), r = 0;

	if (depth < 0)
		return depth;
	slot = &EXT2_I(inode)->i_data[off[0]];
	for (int i = 0;; i++) {
		uint32_t b = *slot;

		if (b == 0 && !create) {
			*out = 0;
			break;
		}
		if (b == 0) {
			r = alloc_zeroed(inode, &b);
			if (r < 0)
				break;
			*slot = b;
			if (bh)
				mark_buffer_dirty(bh);  /* else i_data: the caller writes the inode */
		} else if (!ext2_block_ok(sbi, b)) {
			ext2_error(sbi, __func__, "block past the end in inode", inode->i_ino);
			r = -EUCLEAN;
			break;
		}
		if (i == depth - 1) {
			*out = b;
			break;
		}
		brelse(bh);
		bh = ext2_bread(sbi, b);
		if (!bh) {
			r = -EIO;
			break;
		}
		slot = (uint32_t *)bh->b_data + off[i + 1];
	}
	brelse(bh);
	return r;
}

/* ---- truncation ----------------------------------------------------------------- */

static uint64_t span(struct ext2_sb_info *sbi, int level)
{
	uint64_t s = 1;

	while (level-- > 0)
		s *= sbi->addr_per_block;
	return s;
}

/* Free block and, for an indirect one (level > 0), everything below it. */
static void free_tree(struct inode *inode, uint32_t block, int level)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct buffer_head *bh;

	if (!ext2_block_ok(sbi, block)) {
		ext2_error(sbi, __func__, "block past the end in inode", inode->i_ino);
		return;
	}
	if (level > 0 && (bh = ext2_bread(sbi, block)) != NULL) {
		const uint32_t *p = (const uint32_t *)bh->b_data;

		for (uint32_t i = 0; i < sbi->addr_per_block; i++)
			if (p[i])
				free_tree(inode, p[i], level - 1);
		brelse(bh);
	}
	ext2_free_block(sbi, block);
	EXT2_I(inode)->i_blocks -= sbi->bsize / 512;
}

/* *slot covers file blocks [base, base + span(level)): free those at or past keep. */
static void trunc_slot(struct inode *inode, uint32_t *slot, int level, uint64_t base, uint64_t keep)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct buffer_head *bh;
	uint32_t *p;

	if (*slot == 0)
		return;
	if (base >= keep) {
		free_tree(inode, *slot, level);
		*slot = 0;
		return;
	}
	if (level == 0 || base + span(sbi, level) <= keep || !ext2_block_ok(sbi, *slot))
		return;
	bh = ext2_bread(sbi, *slot);
	if (!bh)
		return;
	p = (uint32_t *)bh->b_data;
	for (uint32_t i = 0; i < sbi->addr_per_block; i++)
		trunc_slot(inode, &p[i], level - 1, base + i * span(sbi, level - 1), keep);
	mark_buffer_dirty(bh);
	brelse(bh);
}

int ext2_truncate_blocks(struct inode *inode, loff_t size)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	uint32_t *data = EXT2_I(inode)->i_data;
	uint64_t keep = ((uint64_t)size + sbi->bsize - 1) / sbi->bsize, base = EXT2_NDIR_BLOCKS;

	if (!has_blocks(inode))
		return 0;
	for (uint32_t i = 0; i < EXT2_NDIR_BLOCKS; i++)
		trunc_slot(inode, &data[i], 0, i, keep);
	for (int level = 1; level <= 3; level++) {
		trunc_slot(inode, &data[EXT2_IND_BLOCK + level - 1], level, base, keep);
		base += span(sbi, level);
	}
	EXT2_I(inode)->i_next_goal = 0;
	return 0;
}

/* The bytes of the last block past size must read as zeros if the file grows again. Needs i_mutex. */
static int zero_tail(struct inode *inode, loff_t size)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	uint32_t off = (uint32_t)(size % sbi->bsize), block;
	struct buffer_head *bh;
	int r;

	if (off == 0)
		return 0;
	r = ext2_bmap(inode, (uint32_t)(size / sbi->bsize), false, &block);
	if (r < 0 || block == 0)
		return r;
	bh = ext2_bread(sbi, block);
	if (!bh)
		return -EIO;
	memset(bh->b_data + off, 0, sbi->bsize - off);
	mark_buffer_dirty(bh);
	brelse(bh);
	return 0;
}

/* truncate(2), ftruncate(2), O_TRUNC: i_op->truncate of regular files. */
int ext2_setsize(struct inode *inode, loff_t size)
{
	int r = 0;

	if (EXT2_ISB(inode)->rdonly)
		return -EROFS;
	if (size > ext2_max_size(EXT2_ISB(inode)))
		return -EFBIG;
	mutex_lock(&inode->i_mutex);
	if (size < inode->i_size) {
		r = zero_tail(inode, size);
		if (r == 0)
			r = ext2_truncate_blocks(inode, size);
	}
	if (r == 0) {
		inode->i_size = size;
		inode_touch(inode, true, true);
		r = ext2_write_inode(inode);
	}
	mutex_unlock(&inode->i_mutex);
	return r;
}

/* The last reference to an unlinked inode: its blocks and its number go back (Linux's ext2_delete_inode). */
void ext2_evict(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_ISB(inode);
	struct ext2_inode_info *ei = EXT2_I(inode);

	spin_lock(&sbi->icache_lock);
	list_del(&ei->link);
	spin_unlock(&sbi->icache_lock);
	if (!sbi->rdonly) {
		ext2_truncate_blocks(inode, 0);
		ext2_xattr_delete_inode(inode);
		inode->i_size = 0;
		ei->i_dtime = inode_time_now();
		ext2_write_inode(inode);
		ext2_free_inode(inode);
	}
	kfree(ei);
	inode_free(inode);
}
