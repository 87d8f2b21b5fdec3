/* Programs linked into the kernel image, found by path until there is a file system. */
#ifndef KERNEL_USERPROG_H
#define KERNEL_USERPROG_H

#include "kernel/types.h"

struct userprog {
	const char *path;               /* e.g. "/bin/utest" */
	const unsigned char *start;     /* the ELF file's bytes, as they would be on disk */
	const unsigned char *end;
};

/* The program at path, or NULL. */
const struct userprog *userprog_find(const char *path);

#endif
