/* File types, modes and struct stat64: Linux i386's (asm/stat.h, linux/stat.h). Shared with user space. */
#ifndef SMPIX_UAPI_STAT_H
#define SMPIX_UAPI_STAT_H

#include <stdint.h>

#define S_IFMT   0170000
#define S_IFSOCK 0140000
#define S_IFLNK  0120000
#define S_IFREG  0100000
#define S_IFBLK  0060000
#define S_IFDIR  0040000
#define S_IFCHR  0020000
#define S_IFIFO  0010000
#define S_ISUID  0004000
#define S_ISGID  0002000
#define S_ISVTX  0001000

#define S_ISLNK(m)  (((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)  (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)  (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)  (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)  (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)

/* Linux's "new" dev_t encoding as user space sees it in st_rdev (glibc's makedev for small numbers). */
#define SMPIX_MKDEV(ma, mi) ((((ma) & 0xfffu) << 8) | ((mi) & 0xffu) | (((mi) & 0xfff00u) << 12))
#define SMPIX_MAJOR(d) (((d) >> 8) & 0xfffu)
#define SMPIX_MINOR(d) (((d) & 0xffu) | (((d) >> 12) & 0xfff00u))

/* struct stat64 of Linux i386 (arch/x86/include/uapi/asm/stat.h): 96 bytes, packed to 4. */
struct stat64 {
	uint64_t st_dev;
	uint8_t  __pad0[4];
	uint32_t __st_ino;              /* the low 32 bits of st_ino */
	uint32_t st_mode;
	uint32_t st_nlink;
	uint32_t st_uid;
	uint32_t st_gid;
	uint64_t st_rdev;
	uint8_t  __pad3[4];
	int64_t  st_size;
	uint32_t st_blksize;
	uint64_t st_blocks;             /* 512-byte units */
	uint32_t st_atime;
	uint32_t st_atime_nsec;
	uint32_t st_mtime;
	uint32_t st_mtime_nsec;
	uint32_t st_ctime;
	uint32_t st_ctime_nsec;
	uint64_t st_ino;
} __attribute__((packed, aligned(4)));

_Static_assert(sizeof(struct stat64) == 96, "struct stat64 is 96 bytes on Linux i386");

#endif
