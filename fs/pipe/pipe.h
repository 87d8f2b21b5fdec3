/* Pipes: a byte ring between a read end and a write end, with sleeping readers and writers. */
#ifndef FS_PIPE_H
#define FS_PIPE_H

#include "kernel/types.h"

struct file;
struct file_operations;

/*
 * The ring's capacity. Linux has had 16 pages (64 KiB) since 2.6.11; 2.6.6
 * had one page. PIPE_BUF (kernel/uapi/limits.h) is the atomicity limit.
 */
#define PIPE_SIZE (64 * 1024)

/* A new pipe: *rd reads, *wr writes (flags: O_NONBLOCK). 0 or -ENOMEM, -ENFILE. */
int pipe_create(unsigned flags, struct file **rd, struct file **wr);
/* What open() installs for a named pipe (an S_IFIFO inode): its ends meet there. */
extern const struct file_operations fifo_fops;
/* How many pipes exist now (for the leak check). */
int pipe_count(void);

#endif
