/* Inodes: allocation, references and link counts; the eviction rule is in fs/inode.h. */
#include "fs/inode.h"

#include "fs/mount.h"
#include "kernel/locking/atomic.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/panic.h"
#include "kernel/time/timer.h"

/* Inodes alive in every file system: lock-free, read by the leak check and /proc. */
static atomic_t inodes_alive;

static uint32_t now_seconds(void)
{
#ifdef HOST_TEST
	return 0;
#else
	return (uint32_t)(clock_realtime_ns() / 1000000000ll);        /* the wall clock (CMOS at boot) */
#endif
}

struct inode *inode_alloc(struct mount *m, uint32_t mode)
{
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!inode)
		return NULL;
	inode->i_mnt = m;
	inode->i_mode = mode;
	inode->i_count = 1;
	if (m)
		mount_ref_get(m);       /* the mount counts its inodes' references (fs/mount.h) */
	inode->i_nlink = 1;
	inode->i_atime = inode->i_mtime = inode->i_ctime = now_seconds();
	spin_lock_init(&inode->i_lock, "inode");
	mutex_init(&inode->i_mutex, "i_mutex");
	atomic_inc(&inodes_alive);
	return inode;
}

void inode_free(struct inode *inode)
{
	if (inode->i_count != 0)
		panic("inode_free: inode %u still has %d references", inode->i_ino, inode->i_count);
	atomic_dec(&inodes_alive);
	kfree(inode);
}

struct inode *igrab(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	/* Count 0 is fine while a directory names it (ramfs keeps unused inodes); evicted is not. */
	if (inode->i_count < 0 || (inode->i_count == 0 && inode->i_nlink == 0))
		panic("igrab: inode %u has count %d and %u links", inode->i_ino, inode->i_count,
		      inode->i_nlink);
	inode->i_count++;
	spin_unlock(&inode->i_lock);
	if (inode->i_mnt)
		mount_ref_get(inode->i_mnt);
	return inode;
}

void iput(struct inode *inode)
{
	struct mount *m;
	bool evict;

	if (!inode)
		return;
	m = inode->i_mnt;
	spin_lock(&inode->i_lock);
	if (inode->i_count <= 0)
		panic("iput: inode %u has count %d", inode->i_ino, inode->i_count);
	inode->i_count--;
	/* Count and links read together: an unlink on another CPU cannot slip between. */
	evict = inode->i_count == 0 && (inode->i_nlink == 0 || (inode->i_flags & I_DROP_UNUSED));
	spin_unlock(&inode->i_lock);
	if (evict) {
		if (inode->i_op && inode->i_op->evict)
			inode->i_op->evict(inode);
		else
			inode_free(inode);
	}
	/* Last, after any eviction: an unmounted instance may be freed here (fs/mount.c). */
	if (m)
		mount_ref_put(m);
}

void inode_inc_link(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	inode->i_nlink++;
	inode->i_ctime = now_seconds();
	spin_unlock(&inode->i_lock);
}

/* The caller holds a reference (it names the inode it unlinks), so the eviction happens at its iput(). */
void inode_dec_link(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	if (inode->i_nlink == 0)
		panic("inode_dec_link: inode %u has no links", inode->i_ino);
	if (inode->i_count == 0)
		panic("inode_dec_link: inode %u unreferenced", inode->i_ino);
	inode->i_nlink--;
	inode->i_ctime = now_seconds();
	spin_unlock(&inode->i_lock);
}

void inode_touch(struct inode *inode, bool mtime, bool ctime)
{
	uint32_t now = now_seconds();

	spin_lock(&inode->i_lock);
	if (mtime)
		inode->i_mtime = now;
	if (ctime)
		inode->i_ctime = now;
	spin_unlock(&inode->i_lock);
}

uint32_t inode_time_now(void)
{
	return now_seconds();
}

int inode_count(void)
{
	return atomic_read(&inodes_alive);
}
