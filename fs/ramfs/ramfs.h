/* ramfs: files kept in memory pages, the root file system (and, as devfs, /dev). */
#ifndef FS_RAMFS_H
#define FS_RAMFS_H

#include "fs/mount.h"

extern const struct filesystem_type ramfs_type;
extern const struct filesystem_type tmpfs_type;
/* Free an unmounted ramfs instance (its filesystem_type's kill), for devfs too. */
void ramfs_kill(struct mount *m);

struct inode;
/*
 * If inode is a ramfs file with a page at index idx: its frame in *pa, with
 * one more reference (the mapping's, page_cache_put() drops it), and true.
 * Never sleeps (kernel/mm/filemap.c calls it from the fault path).
 */
bool ramfs_file_frame(struct inode *inode, uint32_t idx, physaddr_t *pa);

/* The file pages ramfs holds now (for the leak check and meminfo). */
int ramfs_page_count(void);

#endif
