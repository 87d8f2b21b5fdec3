/* opendir/readdir over getdents64: a buffer of Linux's linux_dirent64 records, refilled as needed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int getdents64(int fd, void *buf, unsigned n);

struct DIR {
	int fd;
	int pos, len;                   /* the unread records: buf[pos..len) */
	struct dirent ent;              /* what readdir() returns, overwritten by the next call */
	char buf[2048] __attribute__((aligned(8)));
};

DIR *opendir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(fd);
		return NULL;
	}
	d->fd = fd;
	return d;
}

struct dirent *readdir(DIR *d)
{
	struct linux_dirent64 *r;

	if (d->pos >= d->len) {
		int n = getdents64(d->fd, d->buf, sizeof(d->buf));

		if (n <= 0)
			return NULL;            /* the end (errno untouched), or an error (errno set) */
		d->pos = 0;
		d->len = n;
	}
	r = (struct linux_dirent64 *)(d->buf + d->pos);
	d->pos += r->d_reclen;
	d->ent.d_ino = r->d_ino;
	d->ent.d_type = r->d_type;
	strlcpy(d->ent.d_name, r->d_name, sizeof(d->ent.d_name));
	return &d->ent;
}

int closedir(DIR *d)
{
	int r = close(d->fd);

	free(d);
	return r;
}

int dirfd(DIR *d) { return d->fd; }
