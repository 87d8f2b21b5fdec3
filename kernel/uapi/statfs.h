/* struct statfs64 of Linux i386 and the magic numbers in its f_type. Shared with user space. */
#ifndef SMPIX_UAPI_STATFS_H
#define SMPIX_UAPI_STATFS_H

#include <stdint.h>

#define RAMFS_MAGIC      0x858458f6u
#define TMPFS_MAGIC      0x01021994u    /* devtmpfs is a tmpfs in Linux: the same */
#define PROC_SUPER_MAGIC 0x9fa0u
#define PIPEFS_MAGIC     0x50495045u

#define ST_VALID 0x0020                 /* f_flags holds the mount's flags */

/* asm-generic/statfs.h with i386's ARCH_PACK_STATFS64: 84 bytes, packed to 4. */
struct statfs64 {
	uint32_t f_type;
	uint32_t f_bsize;
	uint64_t f_blocks;
	uint64_t f_bfree;
	uint64_t f_bavail;
	uint64_t f_files;
	uint64_t f_ffree;
	int32_t  f_fsid[2];
	uint32_t f_namelen;
	uint32_t f_frsize;
	uint32_t f_flags;
	uint32_t f_spare[4];
} __attribute__((packed, aligned(4)));

_Static_assert(sizeof(struct statfs64) == 84, "struct statfs64 is 84 bytes on Linux i386");

#endif
