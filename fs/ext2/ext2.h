/*
 * ext2 in memory: one ext2_sb_info per mounted instance (mount->fs_private),
 * one ext2_inode_info per inode it has read (inode->i_private), and the
 * functions the files of fs/ext2/ share. Linux 2.6's fs/ext2/ext2.h.
 *
 * Locks, outermost first:
 *   a directory's or file's i_mutex (the VFS's, or file.c's): its entries, its block map, i_size
 *   lock_super(): the bitmaps, the group descriptors and the superblock's counts
 *     (with the BKL around it, as Linux 2.6.6; in the 2.6.39 build a mutex of its own: super.c)
 *   icache_lock (spinlock): the list of inodes in memory
 *   BH_Lock and the buffer cache's own locks (fs/buffer.c)
 */
#ifndef FS_EXT2_EXT2_H
#define FS_EXT2_EXT2_H

#include "fs/buffer.h"
#include "fs/ext2/ext2_fs.h"
#include "fs/ext2/ext2_type.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "kernel/list.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"

struct ext2_sb_info {
	dev_t dev;
	uint32_t bsize;                 /* block size in bytes: 1024, 2048 or 4096 */
	uint32_t addr_per_block;        /* block numbers in an indirect block: bsize / 4 */
	uint32_t groups;
	uint32_t blocks_per_group, inodes_per_group;
	uint32_t inode_size, inodes_per_block, itb_per_group;   /* itb: inode table blocks */
	uint32_t first_ino;             /* the first inode files may have (11) */
	uint32_t first_data_block, blocks_count, inodes_count;
	uint32_t overhead;              /* metadata blocks, for statfs */
	bool rdonly;                    /* mounted -o ro: every change is -EROFS */
	bool filetype;                  /* directory entries carry the file type */
	struct buffer_head *sbh;        /* the superblock's buffer, referenced while mounted */
	struct ext2_super_block *es;    /* inside sbh */
	struct buffer_head **gd_bh;     /* the descriptor table's blocks, referenced while mounted */
	uint32_t gd_blocks;
	struct mutex s_lock;            /* lock_super(): bitmaps, descriptors, superblock counts */
	spinlock_t icache_lock;         /* protects inodes */
	struct list_head inodes;        /* of ext2_inode_info: every inode in memory */
	struct list_head mounted;       /* on the list of mounted ext2 devices (super.c) */
	bool errors_reported;
};

struct ext2_inode_info {
	struct list_head link;          /* on sbi->inodes; under icache_lock */
	struct inode *inode;
	uint32_t i_data[EXT2_N_BLOCKS]; /* the block map's root; under i_mutex */
	uint32_t i_blocks;              /* 512-byte units held, indirect blocks included */
	uint32_t i_flags, i_dtime, i_file_acl, i_generation;
	uint32_t i_block_group;         /* its group: new blocks are sought there first */
	uint32_t i_next_goal;           /* where its next block is sought: after its last one */
};

static inline struct ext2_sb_info *EXT2_SB(const struct mount *m) { return m->fs_private; }
static inline struct ext2_inode_info *EXT2_I(const struct inode *inode) { return inode->i_private; }
static inline struct ext2_sb_info *EXT2_ISB(const struct inode *inode) { return EXT2_SB(inode->i_mnt); }
static inline struct ext2_group_desc *ext2_gd(struct ext2_sb_info *sbi, uint32_t group)
{
	uint32_t per = sbi->bsize / sizeof(struct ext2_group_desc);

	return (struct ext2_group_desc *)sbi->gd_bh[group / per]->b_data + group % per;
}
static inline struct buffer_head *ext2_gd_bh(struct ext2_sb_info *sbi, uint32_t group)
{
	return sbi->gd_bh[group / (sbi->bsize / sizeof(struct ext2_group_desc))];
}
static inline struct buffer_head *ext2_bread(struct ext2_sb_info *sbi, uint32_t block)
{
	return bread(sbi->dev, block, sbi->bsize);
}
/* A block number an inode or a descriptor may name: inside the file system, past the boot block. */
static inline bool ext2_block_ok(struct ext2_sb_info *sbi, uint32_t block)
{
	return block >= sbi->first_data_block && block < sbi->blocks_count;
}

/* super.c */
void lock_super(struct ext2_sb_info *sbi);
void unlock_super(struct ext2_sb_info *sbi);
/* Say once, loudly, what is corrupt; the caller answers -EUCLEAN (or -EIO). */
void ext2_error(struct ext2_sb_info *sbi, const char *fn, const char *what, uint32_t n);

/* balloc.c: with lock_super taken inside. */
int ext2_new_block(struct ext2_sb_info *sbi, uint32_t goal, uint32_t *out);
void ext2_free_block(struct ext2_sb_info *sbi, uint32_t block);

/* ialloc.c */
int ext2_new_inode(struct inode *dir, uint32_t mode, struct inode **out);
void ext2_free_inode(struct inode *inode);
void ext2_free_inode_bit(struct ext2_sb_info *sbi, uint32_t ino, bool dir);

/* inode.c */
int ext2_iget(struct mount *m, uint32_t ino, struct inode **out);
struct inode *ext2_inode_new_mem(struct mount *m, uint32_t ino, uint32_t mode);
void ext2_set_ops(struct inode *inode);
int ext2_write_inode(struct inode *inode);
/* The disk block of a file's block lblock: *out 0 for a hole (create: allocate one, zeroed). */
int ext2_bmap(struct inode *inode, uint32_t lblock, bool create, uint32_t *out);
/* Free every block from byte size on (i_mutex held, or the last reference). */
int ext2_truncate_blocks(struct inode *inode, loff_t size);
void ext2_evict(struct inode *inode);
int ext2_setsize(struct inode *inode, loff_t size);
uint32_t ext2_encode_dev(uint32_t rdev, uint32_t *data);
loff_t ext2_max_size(struct ext2_sb_info *sbi);
int ext2_setattr(struct inode *inode);

/* xattr.c: the last reference to an inode's extended-attribute block frees it. */
void ext2_xattr_delete_inode(struct inode *inode);

/* dir.c: with the directory's i_mutex held. */
int ext2_find_entry(struct inode *dir, const struct qstr *name, struct buffer_head **bhp,
		    struct ext2_dir_entry_2 **dep, struct ext2_dir_entry_2 **prevp);
int ext2_add_entry(struct inode *dir, const struct qstr *name, struct inode *inode);
int ext2_delete_entry(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
		      struct ext2_dir_entry_2 *prev);
int ext2_empty_dir(struct inode *dir);
int ext2_make_empty(struct inode *inode, struct inode *parent);
int ext2_set_dotdot(struct inode *dir, uint32_t parent_ino);
void ext2_set_de_type(struct ext2_sb_info *sbi, struct ext2_dir_entry_2 *de, uint32_t mode);
extern const struct file_operations ext2_dir_fops;

/* namei.c, file.c, symlink.c */
extern const struct inode_operations ext2_dir_iops, ext2_file_iops, ext2_symlink_iops, ext2_special_iops;
extern const struct file_operations ext2_file_fops;
int ext2_fsync(struct file *f);

#endif
