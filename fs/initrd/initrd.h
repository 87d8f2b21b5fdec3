/* The initrd: a cpio "newc" archive (a Multiboot module) unpacked into the root ramfs at boot. */
#ifndef FS_INITRD_H
#define FS_INITRD_H

/* Unpack every boot module into /. Prints what it made, or why an archive is bad. */
void initrd_unpack(void);

#endif
