/*
 * A task's place in the file system: its current directory and umask. One
 * per process, shared by the threads made with CLONE_FS (Linux's fs_struct),
 * so a chdir() in one thread moves them all.
 */
#ifndef FS_FS_STRUCT_H
#define FS_FS_STRUCT_H

#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

struct inode;
struct task;

struct fs_struct {
	atomic_t refs;                  /* tasks that use it */
	/*
	 * Protects cwd: a thread walking a relative path takes its own
	 * reference under it, so a chdir() on another CPU cannot drop the
	 * directory between the read and the igrab().
	 */
	spinlock_t lock;
	struct inode *cwd;              /* referenced; NULL: the root */
	uint32_t umask;                 /* one word, read and written whole */
};

/* A new fs_struct with directory cwd (the reference moves in) and umask; NULL when out of memory. */
struct fs_struct *fs_struct_new(struct inode *cwd, uint32_t umask);
/* A private copy of fs (fork without CLONE_FS): the same directory and umask. */
struct fs_struct *fs_struct_copy(struct fs_struct *fs);
struct fs_struct *fs_struct_get(struct fs_struct *fs);
/* Drop a reference; the last one drops the directory. NULL is fine. */
void fs_struct_put(struct fs_struct *fs);
/* t's current directory, referenced (iput() it), or NULL for the root. */
struct inode *fs_cwd_get(struct task *t);
/* Make dir (referenced: the reference moves in) t's current directory. */
void fs_cwd_set(struct task *t, struct inode *dir);

#endif
