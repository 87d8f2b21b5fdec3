/*
 * ext2fuzz: ext2 on corrupt images (fs/ext2/, docs/block.md), run as init by
 * tools/test/cases/57_ext2.py. The harness attaches up to four copies of a
 * small image, each with random bytes written over a few of its structures
 * (superblock, group descriptors, bitmaps, inode table, directory blocks,
 * any block), as hda..hdd. For each disk's first partition: mount -t ext2 on
 * /mnt, walk the tree reading every file and link, write to files, make,
 * rename, link and remove files and directories, change modes and times,
 * remove everything found (files with a block of extended attributes among
 * them), and umount. Any answer is fine (0 or an errno); a panic, an oops or a hang
 * is the finding. Each disk ends with "ext2fuzz: DEV done"; the run with
 * "ext2fuzz: all done".
 */
#include "gtest.h"

#define __NR_link 9
#define __NR_unlink 10
#define __NR_mount 21
#define __NR_rename 38
#define __NR_mkdir 39
#define __NR_rmdir 40
#define __NR_umount2 52
#define __NR_symlink 83
#define __NR_readlink 85
#define __NR_chmod 15
#define __NR_ftruncate 93
#define __NR_lstat64 196
#define __NR_getdents64 220
#define __NR_utimensat 320
#define __NR_creat 8

#define MAX_DEPTH 6
#define MAX_ENTRIES 400                 /* a corrupt directory may loop or be huge: a budget per disk */

static char buf[64 * 1024];
static int entries, errors, oks;
static uint32_t rng = 57;

static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static void count(long r)
{
	if (r < 0)
		errors++;
	else
		oks++;
}

static void poke_file(const char *path)
{
	int fd = gt_open(path, O_RDWR);
	long r;

	if (fd < 0) {
		count(fd);
		fd = gt_open(path, O_RDONLY);
		if (fd < 0)
			return count(fd);
	}
	for (int i = 0; i < 64 && (r = gt_read(fd, buf, sizeof(buf))) > 0; i++)
		oks++;
	count(SYS3(__NR_lseek, fd, (long)(rnd() % (300 * 1024)), 0));
	count(gt_write(fd, buf, 1 + rnd() % 3000));
	count(SYS2(__NR_ftruncate, fd, (long)(rnd() % (200 * 1024))));
	gt_close(fd);
	count(SYS2(__NR_chmod, path, rnd() % 07777));   /* the inode written back through i_op->write_inode */
	count(SYS4(__NR_utimensat, AT_FDCWD, path, NULL, 0));
}

static void walk(const char *dir, int depth)
{
	static char dents[4096];
	char names[32][64], child[256];
	int n = 0, fd;
	long r;

	if (depth > MAX_DEPTH || entries > MAX_ENTRIES)
		return;
	fd = gt_open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return count(fd);
	while (n < 32 && (r = SYS3(__NR_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < r && n < 32; ) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(dents + off);

			if (d->d_reclen == 0)
				break;
			off += d->d_reclen;
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") && strlen(d->d_name) < 64)
				snprintf(names[n++], 64, "%s", d->d_name);
		}
		if (++entries > MAX_ENTRIES)
			break;
	}
	count(r);
	gt_close(fd);
	for (int i = 0; i < n && entries <= MAX_ENTRIES; i++) {
		struct stat64 st;

		entries++;
		snprintf(child, sizeof(child), "%s/%s", dir, names[i]);
		r = SYS2(__NR_lstat64, child, &st);
		count(r);
		if (r < 0)
			continue;
		if ((st.st_mode & 0170000) == 0040000)
			walk(child, depth + 1);
		else if ((st.st_mode & 0170000) == 0100000)
			poke_file(child);
		else if ((st.st_mode & 0170000) == 0120000) {
			count(SYS3(__NR_readlink, child, buf, 4096));
			count(gt_read_file(child, buf, 4096));
		}
	}
	/* Make, rename, link and remove a few things here. */
	for (int i = 0; i < 3; i++) {
		char a[256], b[256];

		snprintf(a, sizeof(a), "%s/fz%u", dir, rnd() % 100);
		snprintf(b, sizeof(b), "%s/fz%u", dir, rnd() % 100);
		fd = (int)SYS2(__NR_creat, a, 0644);
		count(fd);
		if (fd >= 0) {
			count(gt_write(fd, buf, rnd() % 20000));
			gt_close(fd);
		}
		count(SYS2(__NR_mkdir, b, 0755));
		count(SYS2(__NR_rename, a, b));
		count(SYS2(__NR_link, b, a));
		count(SYS2(__NR_symlink, a, b));
		count(SYS1(__NR_unlink, a));
		count(SYS1(__NR_rmdir, b));
		count(SYS1(__NR_unlink, b));
	}
	/* Then what the directory held. */
	for (int i = 0; i < n; i++) {
		snprintf(child, sizeof(child), "%s/%s", dir, names[i]);
		if ((rnd() & 3) == 0)
			continue;                       /* leave some for the umount's write-back */
		r = SYS1(__NR_unlink, child);
		if (r == -EISDIR || r == -EPERM)
			r = SYS1(__NR_rmdir, child);
		count(r);
	}
}

static void one_disk(const char *dev)
{
	long r;
	int fd = gt_open(dev, O_RDONLY);

	if (fd < 0)
		return;                         /* no such disk attached */
	gt_close(fd);
	entries = errors = oks = 0;
	r = SYS4(__NR_mount, dev, "/mnt", "ext2", 0);
	printf("ext2fuzz: %s mount -> %ld\n", dev, r);
	if (r == 0) {
		walk("/mnt", 0);
		walk("/mnt", 0);                /* again, over what the first walk left */
		r = SYS2(__NR_umount2, "/mnt", 0);
		printf("ext2fuzz: %s %d calls answered 0 or more, %d an errno; umount -> %ld\n", dev, oks, errors,
		       r);
		if (r < 0)
			printf("ext2fuzz: %s umount failed\n", dev);
	}
	printf("ext2fuzz: %s done\n", dev);
}

int main(void)
{
	static const char *devs[] = { "/dev/hda1", "/dev/hdb1", "/dev/hdc1", "/dev/hdd1" };

	gt_start("ext2fuzz");
	(void)gt_why;                   /* no CHECKs: any answer is fine, only a panic or a hang is not */
	for (unsigned i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		rng = 57 + i;
		one_disk(devs[i]);
	}
	printf("ext2fuzz: all done\n");
	gt_finish();
}
