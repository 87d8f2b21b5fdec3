/*
 * The descriptor table: each process's small integers, each naming a
 * struct file, with a close-on-exec bit per descriptor. fork() copies it
 * (sharing the files), execve() closes the close-on-exec ones, exit closes all.
 */
#ifndef FS_FDTABLE_H
#define FS_FDTABLE_H

#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

#define FD_MAX 256              /* descriptors per process: open() beyond answers -EMFILE */

struct file;
struct task;

struct fdtable {
	atomic_t refs;                  /* tasks that use it: threads made with CLONE_FILES share one */
	/*
	 * Protects fd[] and cloexec[]. Held only to look up, install or clear a
	 * slot (never across a file operation): a lookup takes its own reference
	 * to the file before dropping it, so a close() on another thread cannot
	 * free the file under a read() in progress.
	 */
	spinlock_t lock;
	struct file *fd[FD_MAX];
	uint32_t cloexec[FD_MAX / 32];
};

/* An empty table, or NULL when out of memory. */
struct fdtable *fdtable_alloc(void);
/* A copy of t for fork(): same files (each referenced again), same close-on-exec bits. */
struct fdtable *fdtable_fork(struct fdtable *t);
/* One more task uses t (clone with CLONE_FILES). */
struct fdtable *fdtable_get(struct fdtable *t);
/* A task lets go of t (exit); the last one closes every descriptor and frees the table. NULL is fine. */
void fdtable_free(struct fdtable *t);
/* Close the close-on-exec descriptors (execve, past its point of no return). */
void fdtable_exec(struct fdtable *t);

/* Put f (the caller's reference) in slot fd of a table no process uses yet (init's 0, 1, 2). */
void fdtable_set(struct fdtable *t, int fd, struct file *f);
/* Install f in the lowest free slot >= minfd of the current process: the fd, or -EMFILE. Takes over the caller's reference. */
int fd_install(struct file *f, int minfd, bool cloexec);
/* The file behind fd of the current process, referenced (fput when done), or NULL (-EBADF). */
struct file *fd_get(int fd);
/* Close fd: 0 or -EBADF. */
int fd_close(int fd);
/* dup2/dup3: make newfd name the same file as oldfd (closing what newfd named). newfd, or -errno. */
int fd_dup_to(int oldfd, int newfd, bool cloexec);
/* The close-on-exec bit: 0/1 or -EBADF; set returns 0 or -EBADF. */
int fd_get_cloexec(int fd);
int fd_set_cloexec(int fd, bool on);

#endif
