/* ext2's door to the VFS: the file system type mount(2) finds by the name "ext2" (fs/ext2/super.c). */
#ifndef FS_EXT2_EXT2_TYPE_H
#define FS_EXT2_EXT2_TYPE_H

#include "fs/mount.h"

extern const struct filesystem_type ext2_type;

#endif
