/* /dev/kcounts: kernel object counts (inodes, files, pages, heap) for leak checks. */
#ifndef DRIVERS_KCOUNTS_H
#define DRIVERS_KCOUNTS_H

#define KCOUNTS_MAJOR 240       /* Linux's "local/experimental use" range */
#define KCOUNTS_MINOR 0

void kcounts_init(void);

#endif
