/* Block device ioctls, Linux's numbers (include/uapi/linux/fs.h), as an i386 program sees them. */
#ifndef KERNEL_UAPI_FS_H
#define KERNEL_UAPI_FS_H

#define BLKGETSIZE   0x1260             /* _IO(0x12,96): unsigned long, the size in 512-byte sectors */
#define BLKFLSBUF    0x1261             /* _IO(0x12,97): write back and forget the device's buffers */
#define BLKSSZGET    0x1268             /* _IO(0x12,104): int, the logical sector size */
#define BLKBSZGET    0x80041270         /* _IOR(0x12,112,size_t): int, the block size of the device file */
/* _IOR(0x12,114,size_t): a u64 of bytes. size_t in the number, so 4 bytes' worth on i386, 8 on x86_64. */
#define BLKGETSIZE64 0x80041272

#endif
