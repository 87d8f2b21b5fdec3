/* flock(2): whole-file advisory locks, under the BKL as in Linux 2.6.6 (or flock_mutex). See fs/flock.c. */
#ifndef FS_FLOCK_H
#define FS_FLOCK_H

struct file;

void flock_init(void);
/* The last fput() of f: drop the lock it holds, if any. */
void flock_release_file(struct file *f);
/* How many flock locks exist now (for the leak check). */
int flock_count(void);

#endif
