/* ramfs: files kept in memory pages, the root file system (and, as devfs, /dev). */
#ifndef FS_RAMFS_H
#define FS_RAMFS_H

#include "fs/mount.h"

extern const struct filesystem_type ramfs_type;
extern const struct filesystem_type tmpfs_type;
/* Free an unmounted ramfs instance (its filesystem_type's kill), for devfs too. */
void ramfs_kill(struct mount *m);

/* The file pages ramfs holds now (for the leak check and meminfo). */
int ramfs_page_count(void);

#endif
