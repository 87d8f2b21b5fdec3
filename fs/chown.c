/*
 * chown, lchown, fchown, fchownat: the system calls over inode_chown()
 * (fs/attr.c). i386 has each twice: the original calls (16, 95, 182) take
 * 16-bit ids, where 0xFFFF is "unchanged" (Linux's kernel/uid16.c,
 * low2highuid), and the *32 calls (198, 207, 212) and fchownat (298) take
 * 32-bit ones. chown follows a final symlink, lchown changes the link itself.
 */
#include "fs/attr.h"
#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/inode.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"

/* A 16-bit caller's id: its low 16 bits, 0xFFFF meaning "unchanged". */
static uint32_t id16(uint32_t id)
{
	id &= 0xFFFF;
	return id == 0xFFFF ? ID_UNCHANGED : id;
}

static long chown_fd(int fd, uint32_t uid, uint32_t gid)
{
	struct file *f = fd_get(fd);
	long r;

	if (!f)
		return -EBADF;
	r = inode_chown(f->f_inode, uid, gid);
	fput(f);
	return r;
}

/* Linux's order: the flags (-EINVAL), the path (-EFAULT, -ENOENT...), the mount (-EROFS), the rule (-EPERM). */
long sys_fchownat(int dirfd, const char *upath, uint32_t uid, uint32_t gid, int flags)
{
	struct inode *inode;
	long r = user_walk_at(dirfd, upath, flags, &inode);

	if (r < 0)
		return r;
	r = inode_chown(inode, uid, gid);
	iput(inode);
	return r;
}

long sys_chown32(const char *upath, uint32_t uid, uint32_t gid)
{
	return sys_fchownat(AT_FDCWD, upath, uid, gid, 0);
}

long sys_lchown32(const char *upath, uint32_t uid, uint32_t gid)
{
	return sys_fchownat(AT_FDCWD, upath, uid, gid, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown32(int fd, uint32_t uid, uint32_t gid)
{
	return chown_fd(fd, uid, gid);
}

long sys_chown(const char *upath, uint32_t uid, uint32_t gid)
{
	return sys_fchownat(AT_FDCWD, upath, id16(uid), id16(gid), 0);
}

long sys_lchown(const char *upath, uint32_t uid, uint32_t gid)
{
	return sys_fchownat(AT_FDCWD, upath, id16(uid), id16(gid), AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(int fd, uint32_t uid, uint32_t gid)
{
	return chown_fd(fd, id16(uid), id16(gid));
}
