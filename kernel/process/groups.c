/*
 * getgroups and setgroups, in their 32-bit (getgroups32, setgroups32) and
 * their original 16-bit forms, as Linux's kernel/groups.c and kernel/uid16.c.
 *
 * Only the task itself reads or replaces current->groups, so the pointer
 * needs no lock; the list it points to is shared (fork) and immutable, so
 * its reference count is the only thing two CPUs may touch at once.
 */
#include "kernel/process/groups.h"

#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sched/task.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"

#define OVERFLOW_GID 65534      /* what a 16-bit caller sees for a gid that does not fit (high2lowgid) */
#define INVALID_GID  0xFFFFFFFFu        /* (gid_t)-1: no group, refused by setgroups (Linux's gid_valid) */

static struct group_info *groups_get(struct group_info *gi)
{
	if (gi)
		atomic_inc(&gi->refs);
	return gi;
}

static void groups_put(struct group_info *gi)
{
	if (gi && atomic_dec_and_test(&gi->refs))
		kfree(gi);
}

void groups_fork(struct task *child, struct task *parent)
{
	child->groups = groups_get(parent->groups);
}

void groups_release(struct task *t)
{
	groups_put(t->groups);
	t->groups = NULL;
}

static int ngroups(void)
{
	return current->groups ? current->groups->ngroups : 0;
}

bool groups_contain(uint32_t gid)
{
	const struct group_info *gi = current->groups;

	for (int i = 0; gi && i < gi->ngroups; i++)
		if (gi->gid[i] == gid)
			return true;
	return false;
}

/* Insertion sort, ascending as unsigned numbers (Linux's groups_sort orders by gid_gt). */
static void sort_gids(uint32_t *g, int n)
{
	for (int i = 1; i < n; i++) {
		uint32_t v = g[i];
		int j = i;

		for (; j > 0 && g[j - 1] > v; j--)
			g[j] = g[j - 1];
		g[j] = v;
	}
}

/*
 * Read size gids of width bytes (2 or 4) from ulist and make them the
 * caller's list. Linux's order: the size, then each gid (-EFAULT), then
 * its validity ((gid_t)-1, or 0xFFFF in the 16-bit form, is -EINVAL).
 */
static long set_groups(int size, const void *ulist, int width)
{
	struct group_info *gi;

	if ((unsigned)size > NGROUPS_MAX)
		return -EINVAL;
	gi = kmalloc(sizeof(*gi) + (size_t)size * sizeof(uint32_t));
	if (!gi)
		return -ENOMEM;
	atomic_set(&gi->refs, 1);
	gi->ngroups = size;
	for (int i = 0; i < size; i++) {
		uint32_t gid;
		uint16_t gid16;
		int r;

		if (width == 2) {
			r = copy_from_user(&gid16, (const uint16_t *)ulist + i, sizeof(gid16));
			gid = gid16 == 0xFFFF ? INVALID_GID : gid16;    /* low2highgid */
		} else {
			r = copy_from_user(&gid, (const uint32_t *)ulist + i, sizeof(gid));
		}
		if (r < 0 || gid == INVALID_GID) {
			kfree(gi);
			return r < 0 ? -EFAULT : -EINVAL;
		}
		gi->gid[i] = gid;
	}
	sort_gids(gi->gid, size);
	groups_put(current->groups);
	current->groups = gi;
	return 0;
}

/* Copy the caller's list to ulist (room for size gids of width bytes): the count, or -errno. */
static long get_groups(int size, void *ulist, int width)
{
	int n = ngroups();

	if (size < 0)
		return -EINVAL;
	if (size == 0)
		return n;               /* only the count (getgroups(0, NULL)) */
	if (n > size)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		uint32_t gid = current->groups->gid[i];
		uint16_t gid16 = gid > 0xFFFF ? OVERFLOW_GID : (uint16_t)gid;   /* high2lowgid */
		int r;

		if (width == 2)
			r = copy_to_user((uint16_t *)ulist + i, &gid16, sizeof(gid16));
		else
			r = copy_to_user((uint32_t *)ulist + i, &gid, sizeof(gid));
		if (r < 0)
			return -EFAULT;
	}
	return n;
}

long sys_getgroups32(int size, void *ulist)
{
	return get_groups(size, ulist, 4);
}

long sys_setgroups32(int size, const void *ulist)
{
	return set_groups(size, ulist, 4);
}

long sys_getgroups(int size, void *ulist)
{
	return get_groups(size, ulist, 2);
}

long sys_setgroups(int size, const void *ulist)
{
	return set_groups(size, ulist, 2);
}
