/* mmap, mprotect and mremap flags: Linux i386 values (asm-generic/mman-common.h). */
#ifndef KERNEL_UAPI_MMAN_H
#define KERNEL_UAPI_MMAN_H

#define PROT_NONE       0x0
#define PROT_READ       0x1
#define PROT_WRITE      0x2
#define PROT_EXEC       0x4

#define MAP_SHARED      0x01
#define MAP_PRIVATE     0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE        0x0f
#define MAP_FIXED       0x10
#define MAP_ANONYMOUS   0x20
#define MAP_FIXED_NOREPLACE 0x100000

#define MAP_FAILED      ((void *)-1)

#define MREMAP_MAYMOVE  1
#define MREMAP_FIXED    2

#endif
