/*
 * ext2 on the disk: the superblock, the group descriptors, the inode and the
 * directory entry, byte for byte as e2fsprogs and Linux's
 * include/linux/ext2_fs.h lay them out (little-endian, as x86 is). Revision 1.
 *
 *   block 0 (1 KiB blocks) or bytes 0..1023: the boot block, unused
 *   byte 1024: the superblock (1024 bytes)
 *   the block after it: the group descriptor table, 32 bytes a group
 *   then, per group: block bitmap, inode bitmap, inode table, data blocks
 *   (groups 0, 1 and powers of 3, 5, 7 hold backup copies of the superblock
 *   and descriptors: sparse_super; smpix writes only the primary ones, as
 *   Linux's ext2 does except at resize)
 */
#ifndef FS_EXT2_EXT2_FS_H
#define FS_EXT2_EXT2_FS_H

#include "kernel/types.h"

#define EXT2_SUPER_MAGIC        0xEF53
#define EXT2_SUPER_OFFSET       1024            /* bytes from the device's start */
#define EXT2_ROOT_INO           2
#define EXT2_GOOD_OLD_FIRST_INO 11
#define EXT2_GOOD_OLD_INODE_SIZE 128
#define EXT2_GOOD_OLD_REV       0       /* revision 0: no i_size_high, no features */
#define EXT2_MAX_NON_LFS        0x7FFFFFFFll    /* the largest size without i_size_high (large_file) */
#define EXT2_NAME_LEN           255
#define EXT2_LINK_MAX           32000

/* i_block[]: 12 direct blocks, then single, double and triple indirect. */
#define EXT2_NDIR_BLOCKS 12
#define EXT2_IND_BLOCK   12
#define EXT2_DIND_BLOCK  13
#define EXT2_TIND_BLOCK  14
#define EXT2_N_BLOCKS    15

/* s_state */
#define EXT2_VALID_FS 0x1
#define EXT2_ERROR_FS 0x2

/* Features. smpix understands filetype; an unknown incompat feature refuses the mount. */
#define EXT2_FEATURE_INCOMPAT_FILETYPE     0x0002
#define EXT2_FEATURE_INCOMPAT_SUPP         EXT2_FEATURE_INCOMPAT_FILETYPE
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER 0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE   0x0002
#define EXT2_FEATURE_RO_COMPAT_SUPP (EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

/* i_flags: a directory with an htree index (ext3's dir_index); ext2 clears it when it changes one. */
#define EXT2_INDEX_FL 0x00001000

struct ext2_super_block {
	uint32_t s_inodes_count;
	uint32_t s_blocks_count;
	uint32_t s_r_blocks_count;      /* reserved for root */
	uint32_t s_free_blocks_count;
	uint32_t s_free_inodes_count;
	uint32_t s_first_data_block;    /* 1 with 1 KiB blocks, else 0 */
	uint32_t s_log_block_size;      /* block size = 1024 << this */
	uint32_t s_log_frag_size;
	uint32_t s_blocks_per_group;
	uint32_t s_frags_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_mtime, s_wtime;      /* last mount, last write */
	uint16_t s_mnt_count;
	int16_t s_max_mnt_count;
	uint16_t s_magic;
	uint16_t s_state;
	uint16_t s_errors;
	uint16_t s_minor_rev_level;
	uint32_t s_lastcheck, s_checkinterval;
	uint32_t s_creator_os;
	uint32_t s_rev_level;
	uint16_t s_def_resuid, s_def_resgid;
	/* revision 1 */
	uint32_t s_first_ino;
	uint16_t s_inode_size;
	uint16_t s_block_group_nr;
	uint32_t s_feature_compat;
	uint32_t s_feature_incompat;
	uint32_t s_feature_ro_compat;
	uint8_t s_uuid[16];
	char s_volume_name[16];
	char s_last_mounted[64];
	uint32_t s_algorithm_usage_bitmap;
	uint8_t s_prealloc_blocks, s_prealloc_dir_blocks;
	uint16_t s_reserved_gdt_blocks; /* resize_inode: descriptor blocks kept free after the table */
	uint32_t s_rest[204];           /* journal fields (ext3) and padding to 1024 bytes */
};

struct ext2_group_desc {
	uint32_t bg_block_bitmap;
	uint32_t bg_inode_bitmap;
	uint32_t bg_inode_table;
	uint16_t bg_free_blocks_count;
	uint16_t bg_free_inodes_count;
	uint16_t bg_used_dirs_count;
	uint16_t bg_pad;
	uint32_t bg_reserved[3];
};

struct ext2_inode {
	uint16_t i_mode;
	uint16_t i_uid;
	uint32_t i_size;
	uint32_t i_atime, i_ctime, i_mtime, i_dtime;
	uint16_t i_gid;
	uint16_t i_links_count;
	uint32_t i_blocks;              /* 512-byte units, indirect blocks included */
	uint32_t i_flags;
	uint32_t i_osd1;
	uint32_t i_block[EXT2_N_BLOCKS];
	uint32_t i_generation;
	uint32_t i_file_acl;
	uint32_t i_size_high;           /* i_dir_acl: regular files' size above 4 GiB (large_file) */
	uint32_t i_faddr;
	uint8_t i_osd2[12];
};

struct ext2_dir_entry_2 {
	uint32_t inode;                 /* 0: an unused entry */
	uint16_t rec_len;               /* bytes to the next entry */
	uint8_t name_len;
	uint8_t file_type;              /* EXT2_FT_*, with the filetype feature */
	char name[];
};

enum { EXT2_FT_UNKNOWN, EXT2_FT_REG_FILE, EXT2_FT_DIR, EXT2_FT_CHRDEV, EXT2_FT_BLKDEV,
       EXT2_FT_FIFO, EXT2_FT_SOCK, EXT2_FT_SYMLINK };

/* An entry's smallest size for a name of len bytes: 8 bytes of header, the name, rounded up to 4. */
#define EXT2_DIR_REC_LEN(len) (((len) + 8 + 3) & ~3u)

_Static_assert(sizeof(struct ext2_super_block) == 1024, "ext2 superblock");
_Static_assert(sizeof(struct ext2_group_desc) == 32, "ext2 group descriptor");
_Static_assert(sizeof(struct ext2_inode) == 128, "ext2 inode");

#endif
