/* <dirent.h>: opendir/readdir over getdents64 (dirent.c). */
#ifndef USER_DIRENT_H
#define USER_DIRENT_H

#include <stdint.h>

#include "kernel/uapi/dirent.h"

struct dirent {
	uint64_t d_ino;
	unsigned char d_type;
	char d_name[256];
};

typedef struct DIR DIR;

DIR *opendir(const char *path);
struct dirent *readdir(DIR *d);
int closedir(DIR *d);
int dirfd(DIR *d);

#endif
