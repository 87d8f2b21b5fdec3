/*
 * The path walk: one component at a time, from a starting directory, each
 * looked up under its directory's i_mutex, crossing mounts and following
 * symlinks. The rules are in fs/namei.h.
 */
#include "fs/namei.h"

#include "fs/file.h"
#include "fs/mount.h"
#include "kernel/locking/atomic.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/limits.h"
#include "kernel/uapi/stat.h"

/* One walk's state: where "/" is, and how many symlinks it has followed (for -ELOOP). */
struct walk {
	const struct walk_start *s;
	int links;
};

static bool is_dot(const struct qstr *q)
{
	return q->len == 1 && q->name[0] == '.';
}

static bool is_dotdot(const struct qstr *q)
{
	return q->len == 2 && q->name[0] == '.' && q->name[1] == '.';
}

/* If a file system is mounted on *ip, step into its root (repeatedly: mounts may stack). */
static void follow_mounts_down(struct inode **ip)
{
	struct inode *root;

	while ((root = mount_enter(*ip)) != NULL) {
		iput(*ip);
		*ip = root;
	}
}

int lookup_one(struct inode *dir, const struct qstr *name, struct inode **out)
{
	int r;

	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (name->len > NAME_MAX)
		return -ENAMETOOLONG;
	if (is_dot(name)) {
		*out = igrab(dir);
		return 0;
	}
	/* ".." of a mount's root is ".." of the directory it covers. */
	if (is_dotdot(name))
		while (dir->i_mnt && dir == dir->i_mnt->root && dir->i_mnt->covered)
			dir = dir->i_mnt->covered;
	if (!dir->i_op || !dir->i_op->lookup)
		return -ENOTDIR;
	mutex_lock(&dir->i_mutex);
	/*
	 * A directory removed while we held it finds nothing, not even "..": the parent
	 * it named may be removed and freed since (Linux's IS_DEADDIR). rmdir drops the
	 * last links under this i_mutex.
	 */
	r = dir->i_nlink == 0 ? -ENOENT : dir->i_op->lookup(dir, name, out);
	mutex_unlock(&dir->i_mutex);
	if (r == 0)
		follow_mounts_down(out);
	return r;
}

int lookup_create(struct inode *dir, const struct qstr *name, uint32_t mode, bool excl,
		  struct inode **out, bool *created)
{
	int r;

	*created = false;
	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (name->len > NAME_MAX)
		return -ENAMETOOLONG;
	if (!dir->i_op || !dir->i_op->lookup)
		return -ENOTDIR;
	mutex_lock(&dir->i_mutex);
	r = dir->i_op->lookup(dir, name, out);
	if (r == 0 && excl) {
		iput(*out);
		r = -EEXIST;
	} else if (r == -ENOENT) {
		r = dir->i_op->create ? dir->i_op->create(dir, name, mode, 0, out) : -EACCES;
		*created = r == 0;
	}
	mutex_unlock(&dir->i_mutex);
	if (r == 0 && !*created)
		follow_mounts_down(out);
	return r;
}

int vfs_read_link(struct inode *link, char **out)
{
	char *buf;
	int n;

	if (!link->i_op || !link->i_op->readlink)
		return -EINVAL;
	buf = kmalloc(PATH_MAX);
	if (!buf)
		return -ENOMEM;
	n = link->i_op->readlink(link, buf, PATH_MAX - 1);
	if (n <= 0) {
		kfree(buf);
		return n < 0 ? n : -ENOENT;     /* an empty target names nothing, as in Linux */
	}
	buf[n] = '\0';
	*out = buf;
	return n;
}

static int walk_from(struct walk *w, struct inode *cur, const char *p, const char *end,
		     unsigned flags, struct inode **out);

/* cur/next: next is a symlink met in the walk; replace it by what its target names from cur. */
static int follow_link(struct walk *w, struct inode *cur, struct inode *link, struct inode **out)
{
	char *target;
	int n, r;

	if (++w->links > SYMLINK_MAX) {
		iput(cur);
		iput(link);
		return -ELOOP;
	}
	n = vfs_read_link(link, &target);
	iput(link);
	if (n < 0) {
		iput(cur);
		return n;
	}
	r = walk_from(w, cur, target, target + n, LOOKUP_FOLLOW, out);
	kfree(target);
	return r;
}

/*
 * Walk [p, end) from cur (whose reference we take over). On success *out
 * holds a reference to the result; on failure every reference is dropped.
 */
static int walk_from(struct walk *w, struct inode *cur, const char *p, const char *end,
		     unsigned flags, struct inode **out)
{
	bool slash_at_end = end > p && end[-1] == '/';
	struct inode *next;
	int r;

	if (p == end) {
		iput(cur);
		return -ENOENT;
	}
	if (*p == '/') {
		iput(cur);
		cur = igrab(w->s->root);
	}
	for (;;) {
		struct qstr name;
		const char *q;
		bool last;

		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		for (q = p; q < end && *q != '/'; q++)
			;
		name.name = p;
		name.len = (size_t)(q - p);
		last = q == end || ({ const char *t = q; while (t < end && *t == '/') t++; t == end; });
		if (name.len > NAME_MAX) {
			iput(cur);
			return -ENAMETOOLONG;
		}
		if (is_dotdot(&name) && cur == w->s->root)
			r = (next = igrab(cur), 0);     /* ".." of the root is the root */
		else
			r = lookup_one(cur, &name, &next);
		if (r < 0) {
			iput(cur);
			return r;
		}
		if (S_ISLNK(next->i_mode) && (!last || (flags & LOOKUP_FOLLOW) || slash_at_end)) {
			r = follow_link(w, cur, next, &cur);
			if (r < 0)
				return r;
		} else {
			iput(cur);
			cur = next;
		}
		p = q;
	}
	if (((flags & LOOKUP_DIRECTORY) || slash_at_end) && !S_ISDIR(cur->i_mode)) {
		iput(cur);
		return -ENOTDIR;
	}
	*out = cur;
	return 0;
}

int path_walk(const struct walk_start *s, const char *path, unsigned flags, struct inode **out)
{
	struct walk w = { s, 0 };
	size_t len = strnlen(path, PATH_MAX);

	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	return walk_from(&w, igrab(s->cwd), path, path + len, flags, out);
}

int path_walk_parent(const struct walk_start *s, const char *path, struct inode **dir,
		     struct qstr *last, bool *trailing_slash)
{
	struct walk w = { s, 0 };
	size_t len = strnlen(path, PATH_MAX);
	const char *end = path + len, *name;

	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	if (len == 0)
		return -ENOENT;
	*trailing_slash = false;
	while (end > path + 1 && end[-1] == '/') {
		end--;
		*trailing_slash = true;
	}
	for (name = end; name > path && name[-1] != '/'; name--)
		;
	last->name = name;
	last->len = (size_t)(end - name);
	if (last->len > NAME_MAX)
		return -ENAMETOOLONG;
	if (name == path) {             /* "name" alone: its directory is the start */
		*dir = igrab(s->cwd);
		if (!S_ISDIR((*dir)->i_mode)) {
			iput(*dir);
			return -ENOTDIR;
		}
		return 0;
	}
	if (last->len == 0 && name == path + 1 && path[0] == '/') {   /* "/" itself */
		*dir = igrab(s->root);
		return 0;
	}
	return walk_from(&w, igrab(s->cwd), path, name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, dir);
}

/* For path_of_dir: find the entry whose inode number is ino. */
struct find_name {
	struct dir_context ctx;
	uint32_t ino;
	char name[NAME_MAX + 1];
	bool found;
};

static bool find_name_emit(struct dir_context *ctx, const char *name, size_t len, uint32_t ino,
			   unsigned dtype, loff_t next_pos)
{
	struct find_name *fn = container_of(ctx, struct find_name, ctx);

	(void)dtype;
	(void)next_pos;
	if (ino != fn->ino || (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	memcpy(fn->name, name, len);
	fn->name[len] = '\0';
	fn->found = true;
	return false;
}

/* The name child has in parent (child: the inode as parent's file system sees it). */
static int name_in_parent(struct inode *parent, struct inode *child, struct find_name *fn)
{
	struct file f;
	int r;

	if (!parent->i_fop || !parent->i_fop->readdir)
		return -ENOENT;
	memset(&f, 0, sizeof(f));
	f.f_inode = parent;
	f.f_op = parent->i_fop;
	fn->ctx.emit = find_name_emit;
	fn->ino = child->i_ino;
	fn->found = false;
	mutex_lock(&parent->i_mutex);
	r = parent->i_fop->readdir(&f, &fn->ctx);
	mutex_unlock(&parent->i_mutex);
	if (r < 0)
		return r;
	return fn->found ? 0 : -ENOENT;
}

int path_of_dir(struct inode *root, struct inode *dir, char *buf, size_t size)
{
	static const struct qstr dotdot = { "..", 2 };
	struct find_name *fn = kmalloc(sizeof(*fn));
	size_t pos = size;
	struct inode *cur = igrab(dir);
	int r = 0;

	if (!fn) {
		iput(cur);
		return -ENOMEM;
	}
	if (size < 2) {
		r = -ERANGE;
		goto out;
	}
	buf[--pos] = '\0';
	while (cur != root) {
		struct inode *parent, *named = cur;
		size_t n;

		if (READ_ONCE(cur->i_nlink) == 0) {     /* removed: no path leads here */
			r = -ENOENT;
			goto out;
		}
		/* A mount's root is named by the directory it covers. */
		while (named->i_mnt && named == named->i_mnt->root && named->i_mnt->covered)
			named = named->i_mnt->covered;
		if (named == root)
			break;
		r = lookup_one(cur, &dotdot, &parent);
		if (r < 0)
			goto out;
		r = name_in_parent(parent, named, fn);
		iput(cur);
		cur = parent;
		if (r < 0)
			goto out;
		n = strlen(fn->name);
		if (n + 1 > pos) {
			r = -ERANGE;
			goto out;
		}
		pos -= n;
		memcpy(buf + pos, fn->name, n);
		buf[--pos] = '/';
	}
	if (pos == size - 1)
		buf[--pos] = '/';
	memmove(buf, buf + pos, size - pos);
	r = (int)(size - pos);
out:
	iput(cur);
	kfree(fn);
	return r;
}
