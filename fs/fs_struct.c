/* The current directory and umask, shared by threads made with CLONE_FS. */
#include "fs/fs_struct.h"

#include "fs/inode.h"
#include "kernel/mm/kheap.h"
#include "kernel/sched/task.h"

struct fs_struct *fs_struct_new(struct inode *cwd, uint32_t umask)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs));

	if (!fs) {
		if (cwd)
			iput(cwd);
		return NULL;
	}
	atomic_set(&fs->refs, 1);
	spin_lock_init(&fs->lock, "fs_struct");
	fs->cwd = cwd;
	fs->umask = umask;
	return fs;
}

struct fs_struct *fs_struct_copy(struct fs_struct *fs)
{
	struct inode *cwd;

	spin_lock(&fs->lock);
	cwd = fs->cwd ? igrab(fs->cwd) : NULL;
	spin_unlock(&fs->lock);
	return fs_struct_new(cwd, READ_ONCE(fs->umask));
}

struct fs_struct *fs_struct_get(struct fs_struct *fs)
{
	atomic_inc(&fs->refs);
	return fs;
}

void fs_struct_put(struct fs_struct *fs)
{
	if (!fs || !atomic_dec_and_test(&fs->refs))
		return;
	if (fs->cwd)
		iput(fs->cwd);
	kfree(fs);
}

struct inode *fs_cwd_get(struct task *t)
{
	struct fs_struct *fs = t->fs;
	struct inode *cwd;

	if (!fs)
		return NULL;
	spin_lock(&fs->lock);
	cwd = fs->cwd ? igrab(fs->cwd) : NULL;
	spin_unlock(&fs->lock);
	return cwd;
}

void fs_cwd_set(struct task *t, struct inode *dir)
{
	struct fs_struct *fs = t->fs;
	struct inode *old;

	spin_lock(&fs->lock);
	old = fs->cwd;
	fs->cwd = dir;
	spin_unlock(&fs->lock);
	if (old)
		iput(old);      /* outside the lock: the last reference may evict the inode */
}
