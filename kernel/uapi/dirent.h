/* getdents64()'s record, Linux's struct linux_dirent64, and d_type values. Shared with user space. */
#ifndef SMPIX_UAPI_DIRENT_H
#define SMPIX_UAPI_DIRENT_H

#include <stdint.h>

#define DT_UNKNOWN 0
#define DT_FIFO    1
#define DT_CHR     2
#define DT_DIR     4
#define DT_BLK     6
#define DT_REG     8
#define DT_LNK     10
#define DT_SOCK    12

/* Records are d_reclen bytes long, 8-byte aligned; d_name is NUL-terminated. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t  d_off;                 /* the position of the NEXT record (lseek cookie) */
	uint16_t d_reclen;
	uint8_t  d_type;
	char     d_name[];
};

#endif
