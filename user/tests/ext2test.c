/*
 * ext2test: ext2 on /dev/hda1 (fs/ext2/, docs/block.md), run as init by
 * tools/test/cases/57_ext2.py on a fresh image that mke2fs -d made from a
 * folder holding small.txt, big.bin (400 KiB: double-indirect blocks),
 * fastlink and slowlink, and files with blocks of extended attributes. It
 * mounts the disk itself, reads what mke2fs wrote, then makes, changes and
 * removes files, changes modes and times, writes past 2 GiB, fills the disk,
 * mounts read-only, and leaves persist.txt and written.bin for the host
 * (e2fsck -fn, debugfs) and for a second boot, which only checks they are
 * there. `ext2test --linux DIR` and `--linux-ro DIR` run the tests whose
 * answers are Linux's in DIR, a loop mount of the same image on Linux.
 */
#include "gtest.h"
#include "kernel/uapi/statfs.h"

#define __NR_link 9
#define __NR_unlink 10
#define __NR_mknod 14
#define __NR_mount 21
#define __NR_sync 36
#define __NR_rename 38
#define __NR_mkdir 39
#define __NR_rmdir 40
#define __NR_umount2 52
#define __NR_symlink 83
#define __NR_readlink 85
#define __NR_truncate 92
#define __NR_ftruncate 93
#define __NR_fsync 118
#define __NR_stat64 195
#define __NR_getdents64 220
#define __NR_statfs64 268
#define __NR_creat 8
#define __NR_chmod 15
#define __NR_fchmod 94
#define __NR__llseek 140
#define __NR_ftruncate64 194
#define __NR_lstat64 196
#define __NR_utimensat 320
#define MS_RDONLY 1
#define EXT2_MAGIC 0xEF53
#define KIB 1024
#define BIG_LEN (400 * KIB)
#define WRITTEN_LEN (300 * KIB)
#define FAR_OFFSET (100L * 1024 * 1024)         /* past 64.3 MiB: triple-indirect with 1 KiB blocks */
#define GIB (1024LL * 1024 * 1024)
#define EXT2_MAX_1K ((12LL + 256 + 256 * 256 + 256 * 256 * 256) * 1024)  /* the block map's reach: 16 GiB */
/* Times set with utimensat, checked by the harness with debugfs (tools/test/cases/57_ext2.py). */
#define ATTRS_ATIME 1000000000
#define ATTRS_MTIME 1234567890
#define PERSIST_ATIME 1111111111
#define PERSIST_MTIME 1222222222

static char buf[512 * KIB], back[512 * KIB];

static long gt_lseek(int fd, long off, int whence) { return SYS3(__NR_lseek, fd, off, whence); }
static int mnt_rw(void) { return (int)SYS4(__NR_mount, "/dev/hda1", "/mnt", "ext2", 0); }
static int umnt(void) { return (int)SYS2(__NR_umount2, "/mnt", 0); }
static int creat_(const char *p) { return (int)SYS2(__NR_creat, p, 0644); }

static long gt_syscall5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
	return r;
}

/* _llseek to a 64-bit position from the start: 0, or -errno. */
static long llseek_to(int fd, long long pos)
{
	long long got = -1;
	long r = gt_syscall5(__NR__llseek, fd, (long)(pos >> 32), (long)(uint32_t)pos, (long)&got, 0);

	return r < 0 ? r : got == pos ? 0 : -1;
}

static long ftruncate64_(int fd, long long size)
{
	return SYS3(__NR_ftruncate64, fd, (uint32_t)size, (uint32_t)(size >> 32));
}

/* utimensat(AT_FDCWD, path, {atime, mtime}, flags), whole seconds. */
static long set_times(const char *path, uint32_t atime, uint32_t mtime, int flags)
{
	int32_t t[4] = { (int32_t)atime, 0, (int32_t)mtime, 0 };

	return SYS4(__NR_utimensat, AT_FDCWD, path, t, flags);
}

/*
 * Where the tests that claim Linux's answers work: /mnt here; on Linux, the
 * directory given with --linux, a loop mount of the same image (main()).
 */
static const char *root = "/mnt";

/* root/name, in one of four buffers (a call may name two paths). */
static const char *at(const char *name)
{
	static char paths[4][256];
	static unsigned next;
	char *p = paths[next++ % 4];

	snprintf(p, sizeof(paths[0]), "%s/%s", root, name);
	return p;
}

/* What tools/test/cases/57_ext2.py puts in big.bin and checks in written.bin. */
static void fill(char *p, long len, long at, int seed)
{
	for (long i = 0; i < len; i++)
		p[i] = (char)(((at + i) * 13 + seed + (at + i) / 1021) & 0xff);
}

static long read_all(const char *path, char *p, long max)
{
	int fd = gt_open(path, O_RDONLY);
	long n = 0, r;

	if (fd < 0)
		return fd;
	while (n < max && (r = gt_read(fd, p + n, (size_t)(max - n))) > 0)
		n += r;
	gt_close(fd);
	return n;
}

static long write_new(const char *path, const char *p, long len)
{
	int fd = creat_(path);
	long r;

	if (fd < 0)
		return fd;
	r = gt_write(fd, p, (size_t)len);
	gt_close(fd);
	return r;
}

static int statfs_(const char *path, struct statfs64 *st)
{
	return (int)SYS3(__NR_statfs64, path, sizeof(*st), st);
}

/* Looked for without reading it: a read would move its atime (relatime: it is older than the mtime). */
static bool persist_present(void)
{
	struct stat64 st;

	return SYS2(__NR_stat64, "/mnt/persist.txt", &st) == 0;
}

static void t_mount_refused(void)
{
	CHECK(SYS4(__NR_mount, "/dev/console", "/mnt", "ext2", 0) == -ENOTBLK);
	CHECK(SYS4(__NR_mount, "/dev/nothere", "/mnt", "ext2", 0) == -ENOENT);
	CHECK(SYS4(__NR_mount, "/dev/hda2", "/mnt", "ext2", 0) == -EINVAL);    /* raw: no superblock */
	CHECK(mnt_rw() == 0);
	CHECK(SYS4(__NR_mount, "/dev/hda1", "/tmp", "ext2", 0) == -EBUSY);     /* one device, once */
}

/* Requests hda has been sent, both ways (/proc/ide: dma_requests + pio_requests). */
static long hda_requests(void)
{
	return gt_ide_field("hda", 3) + gt_ide_field("hda", 4);
}

/*
 * big.bin, in the cache of no one yet, is read in one read(): the reads of
 * the blocks it covers start together (fs/ext2/file.c), so the plugged queue
 * merges them into requests of up to 64 KiB: 7 for 400 blocks, a few more
 * where the indirect blocks break the run. Block by block it took 400.
 */
static void t_read_mke2fs_files(void)
{
	char link[200];
	long n, before;

	CHECK(read_all("/mnt/small.txt", back, 100) == 22 && memcmp(back, "hello from mke2fs -d!\n", 22) == 0);
	fill(buf, BIG_LEN, 0, 1);
	before = hda_requests();
	CHECK(before >= 0);
	CHECK(read_all("/mnt/big.bin", back, sizeof(back)) == BIG_LEN);
	n = hda_requests() - before;
	printf("ext2test: big.bin (%d blocks) read in %ld requests\n", BIG_LEN / KIB, n);
	CHECK(n >= 1 && n <= BIG_LEN / KIB / 16);
	CHECK(memcmp(buf, back, BIG_LEN) == 0);
	n = SYS3(__NR_readlink, "/mnt/fastlink", link, sizeof(link));
	CHECK(n == 9 && memcmp(link, "small.txt", 9) == 0);
	n = SYS3(__NR_readlink, "/mnt/slowlink", link, sizeof(link));
	CHECK(n > 60 && link[0] == '/');
	CHECK(read_all("/mnt/slowlink", back, 100) == 22 && memcmp(back, "hello", 5) == 0);
	CHECK(read_all("/mnt/fastlink", back, 100) == 22);
}

static void t_create_write_append_truncate(void)
{
	int fd;

	fill(buf, 5000, 0, 2);
	CHECK(write_new("/mnt/f1", buf, 5000) == 5000);
	fd = gt_open("/mnt/f1", O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	CHECK(gt_write(fd, "tail", 4) == 4);
	gt_close(fd);
	CHECK(read_all("/mnt/f1", back, sizeof(back)) == 5004);
	CHECK(memcmp(back, buf, 5000) == 0 && memcmp(back + 5000, "tail", 4) == 0);
	CHECK(SYS2(__NR_truncate, "/mnt/f1", 100) == 0);
	CHECK(SYS2(__NR_truncate, "/mnt/f1", 3000) == 0);
	CHECK(read_all("/mnt/f1", back, sizeof(back)) == 3000);
	CHECK(memcmp(back, buf, 100) == 0);
	for (int i = 100; i < 3000; i++)
		CHECK(back[i] == 0);
	fd = gt_open("/mnt/f1", O_RDWR | O_TRUNC);
	CHECK(fd >= 0);
	CHECK(gt_read(fd, back, 10) == 0);
	gt_close(fd);
}

static void t_rename_link_unlink_dirs(void)
{
	struct stat64 st;

	CHECK(write_new("/mnt/a", "A", 1) == 1);
	CHECK(SYS2(__NR_mkdir, "/mnt/d", 0755) == 0);
	CHECK(SYS2(__NR_mkdir, "/mnt/d/e", 0755) == 0);
	CHECK(SYS2(__NR_rename, "/mnt/a", "/mnt/d/a2") == 0);
	CHECK(gt_open("/mnt/a", O_RDONLY) == -ENOENT);
	CHECK(SYS2(__NR_link, "/mnt/d/a2", "/mnt/d/e/a3") == 0);
	CHECK(SYS2(__NR_stat64, "/mnt/d/e/a3", &st) == 0 && st.st_nlink == 2);
	CHECK(SYS2(__NR_stat64, "/mnt/d", &st) == 0 && st.st_nlink == 3);
	CHECK(SYS1(__NR_rmdir, "/mnt/d") == -ENOTEMPTY);
	CHECK(SYS2(__NR_rename, "/mnt/d/e", "/mnt/e") == 0);              /* a directory to another parent */
	CHECK(SYS2(__NR_stat64, "/mnt/d", &st) == 0 && st.st_nlink == 2);
	CHECK(read_all("/mnt/e/../e/a3", back, 10) == 1 && back[0] == 'A');
	CHECK(SYS2(__NR_symlink, "e/a3", "/mnt/ln") == 0);
	CHECK(read_all("/mnt/ln", back, 10) == 1);
	CHECK(SYS3(__NR_mknod, "/mnt/fifo", S_IFIFO | 0644, 0) == 0);
	CHECK(SYS3(__NR_mknod, "/mnt/null", S_IFCHR | 0666, (1 << 8) | 3) == 0);
	CHECK(SYS2(__NR_stat64, "/mnt/null", &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == ((1 << 8) | 3));
	CHECK(gt_write_file("/mnt/null", "gone") == 4);        /* /dev/null's driver, through an ext2 node */
	CHECK(SYS2(__NR_rename, "/mnt/d/a2", "/mnt/e/a3") == 0);            /* over its own other name */
	CHECK(SYS1(__NR_unlink, "/mnt/d/a2") == 0);
	CHECK(SYS1(__NR_unlink, "/mnt/e/a3") == 0);
	CHECK(SYS1(__NR_rmdir, "/mnt/e") == 0);
	CHECK(SYS1(__NR_rmdir, "/mnt/d") == 0);
	CHECK(SYS1(__NR_unlink, "/mnt/ln") == 0 && SYS1(__NR_unlink, "/mnt/fifo") == 0);
	CHECK(SYS1(__NR_unlink, "/mnt/null") == 0);
}

static void t_unlink_open_file(void)
{
	struct statfs64 a, b, c;
	int fd;

	CHECK(statfs_("/mnt", &a) == 0);
	fill(buf, 200 * KIB, 0, 3);
	CHECK(write_new("/mnt/open", buf, 200 * KIB) == 200 * KIB);
	fd = gt_open("/mnt/open", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(SYS1(__NR_unlink, "/mnt/open") == 0);
	CHECK(gt_open("/mnt/open", O_RDONLY) == -ENOENT);
	CHECK(statfs_("/mnt", &b) == 0 && b.f_bfree < a.f_bfree - 190);    /* still held */
	CHECK(gt_read(fd, back, 200 * KIB) == 200 * KIB && memcmp(back, buf, 200 * KIB) == 0);
	gt_close(fd);
	CHECK(statfs_("/mnt", &c) == 0 && c.f_bfree == a.f_bfree && c.f_ffree == a.f_ffree);
}

static void t_many_files(void)
{
	char name[64], dents[4096];
	long n, count = 0;
	int fd;

	CHECK(SYS2(__NR_mkdir, "/mnt/many", 0755) == 0);
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "/mnt/many/file-with-a-longish-name-%04d", i);
		fd = creat_(name);
		CHECK(fd >= 0);
		gt_close(fd);
	}
	fd = gt_open("/mnt/many", O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	while ((n = SYS3(__NR_getdents64, fd, dents, sizeof(dents))) > 0)
		for (long off = 0; off < n; off += ((struct linux_dirent64 *)(dents + off))->d_reclen)
			count++;
	gt_close(fd);
	CHECK(count == 1002);
	for (int i = 0; i < 1000; i += 2) {
		snprintf(name, sizeof(name), "/mnt/many/file-with-a-longish-name-%04d", i);
		CHECK(SYS1(__NR_unlink, name) == 0);
	}
	CHECK(gt_open("/mnt/many/file-with-a-longish-name-0998", O_RDONLY) == -ENOENT);
	fd = gt_open("/mnt/many/file-with-a-longish-name-0999", O_RDONLY);
	CHECK(fd >= 0);
	gt_close(fd);
	CHECK(SYS1(__NR_rmdir, "/mnt/many") == -ENOTEMPTY);
}

/*
 * MANY10K on the image: 10,000 files in one directory (linear, as ext2 has
 * it: every lookup and create reads the whole directory), listed, looked up,
 * half removed, the rest read back; e2fsck checks the directory afterwards.
 */
#define MANY 10000
static void t_ten_thousand_files(void)
{
	static char dents[16384];
	char name[64];
	long n, count = 0;
	int64_t t0 = gt_now_ms();
	int fd;

	CHECK(SYS2(__NR_mkdir, "/mnt/tenk", 0755) == 0);
	for (int i = 0; i < MANY; i++) {
		snprintf(name, sizeof(name), "/mnt/tenk/f%05d", i);
		fd = creat_(name);
		CHECK(fd >= 0);
		if (i % 1000 == 7)
			CHECK(gt_write(fd, name, 16) == 16);
		gt_close(fd);
	}
	printf("ext2test: %d files made in %lld ms\n", MANY, (long long)(gt_now_ms() - t0));
	fd = gt_open("/mnt/tenk", O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	while ((n = SYS3(__NR_getdents64, fd, dents, sizeof(dents))) > 0)
		for (long off = 0; off < n; off += ((struct linux_dirent64 *)(dents + off))->d_reclen)
			count++;
	gt_close(fd);
	CHECK(count == MANY + 2);
	for (int i = 7; i < MANY; i += 1000) {
		snprintf(name, sizeof(name), "/mnt/tenk/f%05d", i);
		CHECK(read_all(name, back, 100) == 16 && memcmp(back, name, 16) == 0);
	}
	for (int i = 0; i < MANY; i += 2) {
		snprintf(name, sizeof(name), "/mnt/tenk/f%05d", i);
		CHECK(SYS1(__NR_unlink, name) == 0);
	}
	CHECK(gt_open("/mnt/tenk/f09998", O_RDONLY) == -ENOENT);
	fd = gt_open("/mnt/tenk/f09999", O_RDONLY);
	CHECK(fd >= 0);
	gt_close(fd);
	CHECK(SYS1(__NR_rmdir, "/mnt/tenk") == -ENOTEMPTY);
	printf("ext2test: %d files made, listed, half removed in %lld ms\n", MANY,
	       (long long)(gt_now_ms() - t0));
}

/*
 * VFSTEST on the image: /bin/vfstest with its working directory on the ext2
 * mount (/mnt/vfstest), then umount: what it left must be gone and the image
 * clean for the harness's e2fsck -fn.
 */
static int vfstest_mounted(void)
{
	char *argv[] = { "/bin/vfstest", "/mnt/vfstest", NULL };
	char *envp[] = { NULL };
	int pid, status;

	if (mnt_rw() != 0)
		return -1;
	pid = gt_fork();
	if (pid == 0) {
		SYS3(11 /* execve */, argv[0], argv, envp);
		gt_exit(127);
	}
	status = pid > 0 ? gt_wait(pid) : -1;
	if (gt_open("/mnt/vfstest", O_RDONLY) != -ENOENT)
		status = -2;
	return umnt() == 0 ? status : -3;
}

/*
 * Twice, each time mounted and unmounted: the first warms the kernel's caches
 * (heap size classes); after the second, with the buffer cache's blocks of the
 * disk dropped at umount, the kernel's counts must be what they were (vfstest's
 * own no-leaks check, on ramfs, compares them while mounted).
 */
static void t_vfstest_on_ext2(void)
{
	struct counts before, after;

	CHECK(umnt() == 0);
	CHECK(vfstest_mounted() == 0);
	CHECK(gt_read_counts(&before) == 0);
	CHECK(vfstest_mounted() == 0);
	CHECK(gt_read_counts(&after) == 0);
	printf("ext2test: counts before: inodes %ld files %ld heap_objects %ld\n", before.inodes, before.files,
	       before.heap_objects);
	printf("ext2test: counts after:  inodes %ld files %ld heap_objects %ld\n", after.inodes, after.files,
	       after.heap_objects);
	CHECK(after.inodes == before.inodes && after.files == before.files);
	CHECK(after.heap_objects == before.heap_objects);
}

/*
 * chmod, fchmod and utimensat reach the inode on the disk (the VFS's
 * i_op->write_inode): the harness reads attrs.txt, attrdir and fastlink with
 * debugfs after the run. The umount in read_only_mount writes them anyway;
 * leave_files_for_host checks the same without a umount, by a power off.
 */
static void t_chmod_utimes_reach_disk(void)
{
	struct stat64 st;
	int fd;

	fd = creat_(at("attrs.txt"));
	CHECK(fd >= 0);
	gt_close(fd);
	CHECK(SYS2(__NR_chmod, at("attrs.txt"), 0640) == 0);
	CHECK(set_times(at("attrs.txt"), ATTRS_ATIME, ATTRS_MTIME, 0) == 0);
	CHECK(SYS2(__NR_stat64, at("attrs.txt"), &st) == 0);
	CHECK(st.st_mode == (S_IFREG | 0640) && st.st_atime == ATTRS_ATIME && st.st_mtime == ATTRS_MTIME);
	CHECK(SYS2(__NR_mkdir, at("attrdir"), 0755) == 0);
	fd = gt_open(at("attrdir"), O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	CHECK(SYS2(__NR_fchmod, fd, 01750) == 0);
	gt_close(fd);
	CHECK(set_times(at("fastlink"), ATTRS_ATIME, ATTRS_MTIME, AT_SYMLINK_NOFOLLOW) == 0);
	CHECK(SYS2(__NR_lstat64, at("fastlink"), &st) == 0 && S_ISLNK(st.st_mode) && st.st_mtime == ATTRS_MTIME);
	CHECK(SYS2(__NR_stat64, at("small.txt"), &st) == 0 && st.st_mtime != ATTRS_MTIME);  /* not followed */
}

/*
 * Files with a block of extended attributes (the harness set them with
 * debugfs ea_set): xattr-own.txt has its own; xattr-a.txt and xattr-b.txt
 * share one (its header counts 2). Unlinking frees the data block and, with
 * the last name, the attribute block; e2fsck -fn after the run agrees.
 */
static void t_xattr_blocks_freed(void)
{
	struct statfs64 a, b, c, d;

	CHECK(statfs_(root, &a) == 0);
	CHECK(SYS1(__NR_unlink, at("xattr-a.txt")) == 0);
	CHECK(statfs_(root, &b) == 0 && b.f_bfree == a.f_bfree + 1);     /* the shared block stays */
	CHECK(SYS1(__NR_unlink, at("xattr-b.txt")) == 0);
	CHECK(statfs_(root, &c) == 0 && c.f_bfree == b.f_bfree + 2);     /* data, and now the shared one */
	CHECK(SYS1(__NR_unlink, at("xattr-own.txt")) == 0);
	CHECK(statfs_(root, &d) == 0 && d.f_bfree == c.f_bfree + 2);
}

/*
 * Past 2 GiB: with O_LARGEFILE a file grows to the block map's reach (16 GiB
 * with 1 KiB blocks; the size's high half in i_size_high, and large_file set
 * in the superblock, which the harness cleared); without it, such a file
 * does not open (-EOVERFLOW) and a write stops at 2 GiB - 1 (-EFBIG there),
 * Linux's LFS rule. The harness reads large.bin's size with debugfs.
 */
static void t_files_past_2_gib(void)
{
	struct stat64 st;
	int fd = (int)SYS3(__NR_open, at("large.bin"), O_CREAT | O_WRONLY | O_LARGEFILE, 0644);

	CHECK(fd >= 0);
	CHECK(llseek_to(fd, 3 * GIB) == 0 && gt_write(fd, "past 3 GiB", 10) == 10);
	CHECK(SYS2(__NR_fstat64, fd, &st) == 0 && st.st_size == 3 * GIB + 10);
	CHECK(llseek_to(fd, EXT2_MAX_1K - 1) == 0 && gt_write(fd, "ab", 2) == 1);
	CHECK(gt_write(fd, "b", 1) == -EFBIG);
	CHECK(ftruncate64_(fd, EXT2_MAX_1K + 1) == -EFBIG);
	CHECK(ftruncate64_(fd, 3 * GIB + 10) == 0);
	gt_close(fd);
	CHECK(gt_open(at("large.bin"), O_RDONLY) == -EOVERFLOW);
	fd = (int)SYS3(__NR_open, at("lfs.bin"), O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0);
	CHECK(llseek_to(fd, 2 * GIB) == 0 && gt_write(fd, "x", 1) == -EFBIG);
	CHECK(llseek_to(fd, 2 * GIB - 4) == 0 && gt_write(fd, "abcdefgh", 8) == 3);
	gt_close(fd);
	fd = gt_open(at("lfs.bin"), O_RDONLY);         /* 2 GiB - 1 bytes: not past it */
	CHECK(fd >= 0);
	CHECK(llseek_to(fd, 2 * GIB - 4) == 0 && gt_read(fd, back, 4) == 3 && memcmp(back, "abc", 3) == 0);
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, at("lfs.bin")) == 0);
	fd = gt_open(at("large.bin"), O_RDONLY | O_LARGEFILE);
	CHECK(fd >= 0);
	CHECK(llseek_to(fd, 3 * GIB) == 0 && gt_read(fd, back, 100) == 10 && memcmp(back, "past 3 GiB", 10) == 0);
	gt_close(fd);
}

static void t_umount(void)
{
	CHECK(umnt() == 0);
}

static void t_triple_indirect_sparse(void)
{
	struct stat64 st;
	int fd = creat_("/mnt/sparse");

	CHECK(fd >= 0);
	CHECK(gt_lseek(fd, FAR_OFFSET, 0) == FAR_OFFSET);
	CHECK(gt_write(fd, "far out", 7) == 7);
	gt_close(fd);
	CHECK(SYS2(__NR_stat64, "/mnt/sparse", &st) == 0 && st.st_size == FAR_OFFSET + 7);
	fd = gt_open("/mnt/sparse", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(gt_lseek(fd, FAR_OFFSET - 1000, 0) == FAR_OFFSET - 1000);
	CHECK(gt_read(fd, back, 2000) == 1007);
	for (int i = 0; i < 1000; i++)
		CHECK(back[i] == 0);
	CHECK(memcmp(back + 1000, "far out", 7) == 0);
	gt_close(fd);
	CHECK(SYS2(__NR_truncate, "/mnt/sparse", 70L * 1024 * 1024) == 0);    /* back to double indirect */
	CHECK(SYS1(__NR_unlink, "/mnt/sparse") == 0);
}

static void t_full_disk_enospc(void)
{
	struct statfs64 a, b;
	long r, total = 0;
	int fd;

	CHECK(statfs_("/mnt", &a) == 0);
	fd = creat_("/mnt/full");
	CHECK(fd >= 0);
	memset(buf, 0x5a, 64 * KIB);
	while ((r = gt_write(fd, buf, 64 * KIB)) == 64 * KIB)
		total += r;
	if (r > 0) {
		total += r;
		r = gt_write(fd, buf, 64 * KIB);
	}
	CHECK(r == -ENOSPC);
	CHECK(total > 1024 * KIB);
	CHECK(statfs_("/mnt", &b) == 0 && b.f_bfree == 0);
	CHECK(SYS2(__NR_mkdir, "/mnt/nospace", 0755) == -ENOSPC);
	gt_close(fd);
	CHECK(SYS1(__NR_unlink, "/mnt/full") == 0);
	CHECK(statfs_("/mnt", &b) == 0 && b.f_bfree == a.f_bfree);
}

static void t_statfs(void)
{
	struct statfs64 st;

	CHECK(statfs_("/mnt", &st) == 0);
	CHECK(st.f_type == EXT2_MAGIC && st.f_bsize == 1024 && st.f_namelen == 255);
	CHECK(st.f_bfree <= st.f_blocks && st.f_bavail <= st.f_bfree && st.f_blocks > 1000);
	CHECK(st.f_ffree < st.f_files && st.f_files > 100);
}

/* On a read-only mount, chmod, fchmod and utimensat answer -EROFS and change nothing. */
static void t_attrs_refused_read_only(void)
{
	struct stat64 st;
	int fd;

	CHECK(SYS2(__NR_chmod, at("small.txt"), 0600) == -EROFS);
	CHECK(set_times(at("small.txt"), ATTRS_ATIME, ATTRS_MTIME, 0) == -EROFS);
	fd = gt_open(at("small.txt"), O_RDONLY);
	CHECK(fd >= 0 && SYS2(__NR_fchmod, fd, 0600) == -EROFS);
	gt_close(fd);
	CHECK(SYS2(__NR_stat64, at("small.txt"), &st) == 0 && st.st_mode == (S_IFREG | 0644));
	CHECK(st.st_mtime != ATTRS_MTIME);
}

static void t_read_only_mount(void)
{
	CHECK(umnt() == 0);
	CHECK(SYS4(__NR_mount, "/dev/hda1", "/mnt", "ext2", MS_RDONLY) == 0);
	CHECK(read_all("/mnt/small.txt", back, 100) == 22);
	CHECK(gt_open("/mnt/small.txt", O_WRONLY) == -EROFS);
	CHECK(creat_("/mnt/new") == -EROFS);
	CHECK(SYS2(__NR_mkdir, "/mnt/newdir", 0755) == -EROFS);
	CHECK(SYS1(__NR_unlink, "/mnt/small.txt") == -EROFS);
	CHECK(SYS2(__NR_truncate, "/mnt/small.txt", 0) == -EROFS);
	t_attrs_refused_read_only();
	CHECK(umnt() == 0);
	CHECK(mnt_rw() == 0);
}

/*
 * /bin/attrtest on the mount (user/tests/attrtest.c): chown, utimes, the
 * atime rules and mount -o remount; it leaves /mnt/attr for the host's debugfs.
 */
static void t_attrtest(void)
{
	char *argv[] = { "/bin/attrtest", "/mnt", NULL };
	char *envp[] = { NULL };
	int pid = gt_fork(), status;

	if (pid == 0) {
		SYS3(11 /* execve */, argv[0], argv, envp);
		gt_exit(127);
	}
	CHECK(pid > 0);
	status = gt_wait(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void t_leave_files_for_host(void)
{
	int fd;

	fill(buf, WRITTEN_LEN, 0, 4);
	CHECK(write_new("/mnt/written.bin", buf, WRITTEN_LEN) == WRITTEN_LEN);
	fd = creat_("/mnt/persist.txt");
	CHECK(fd >= 0);
	CHECK(gt_write(fd, "survives a power off\n", 21) == 21);
	CHECK(SYS1(__NR_fsync, fd) == 0);
	gt_close(fd);
	CHECK(SYS0(__NR_sync) == 0);
	/* After the sync, no umount: the inode's buffer must carry them to the power off's write. */
	CHECK(SYS2(__NR_chmod, "/mnt/persist.txt", 0604) == 0);
	CHECK(set_times("/mnt/persist.txt", PERSIST_ATIME, PERSIST_MTIME, 0) == 0);
	/* Left mounted on purpose: the power off must write what is still dirty. */
}

static void t_files_survived(void)
{
	struct stat64 st;

	CHECK(SYS2(__NR_stat64, "/mnt/persist.txt", &st) == 0);
	CHECK(st.st_mode == (S_IFREG | 0604) && st.st_atime == PERSIST_ATIME && st.st_mtime == PERSIST_MTIME);
	CHECK(SYS2(__NR_stat64, "/mnt/large.bin", &st) == 0 && st.st_size == 3 * GIB + 10);
	CHECK(read_all("/mnt/persist.txt", back, 100) == 21 && memcmp(back, "survives a power off\n", 21) == 0);
	CHECK(SYS2(__NR_stat64, "/mnt/persist.txt", &st) == 0 && st.st_atime > PERSIST_MTIME);  /* relatime */
	fill(buf, WRITTEN_LEN, 0, 4);
	CHECK(read_all("/mnt/written.bin", back, sizeof(back)) == WRITTEN_LEN);
	CHECK(memcmp(buf, back, WRITTEN_LEN) == 0);
	CHECK(read_all("/mnt/many/file-with-a-longish-name-0999", back, 10) == 0);
}

/*
 * A corrupt image (the harness's copies with random bytes in one structure):
 * whatever is broken must answer an errno, never panic or hang. Each answer
 * is printed for the harness to compare.
 */
static void probe_corrupt(int mount_result)
{
	static const char *paths[] = { "/mnt/small.txt", "/mnt/victim.txt", "/mnt/sub/x", "/mnt/sub" };
	char dents[2048];
	long r;
	int fd;

	printf("ext2test: probe mount -> %d\n", mount_result);
	if (mount_result == 0) {
		for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			printf("ext2test: probe %s -> %ld\n", paths[i], read_all(paths[i], back, sizeof(back)));
		fd = gt_open("/mnt", O_RDONLY | O_DIRECTORY);
		r = fd < 0 ? fd : SYS3(__NR_getdents64, fd, dents, sizeof(dents));
		printf("ext2test: probe getdents /mnt -> %ld\n", r);
		if (fd >= 0)
			gt_close(fd);
		printf("ext2test: probe create -> %ld\n", write_new("/mnt/new", "x", 1));
		printf("ext2test: probe unlink -> %ld\n", SYS1(__NR_unlink, "/mnt/victim.txt"));
		printf("ext2test: probe umount -> %d\n", umnt());
	}
	printf("ext2test: probe done\n");
}

int main(int argc, char **argv)
{
	int m;
	struct stat64 st;

	gt_start("ext2test");
	/* The tests whose answers are Linux's, on Linux's ext2 (tools/test/cases/57_ext2.py, linux_run). */
	if (argc == 3 && strcmp(argv[1], "--linux") == 0) {
		root = argv[2];
		gt_run("chmod_utimes_reach_disk", t_chmod_utimes_reach_disk);
		gt_run("xattr_blocks_freed", t_xattr_blocks_freed);
		gt_run("files_past_2_gib", t_files_past_2_gib);
		gt_finish();
	}
	if (argc == 3 && strcmp(argv[1], "--linux-ro") == 0) {
		root = argv[2];
		gt_run("attrs_refused_read_only", t_attrs_refused_read_only);
		gt_finish();
	}
	m = mnt_rw();
	if (SYS2(__NR_stat64, "/mnt/VFSTEST", &st) == 0) {
		gt_run("vfstest_on_ext2_no_leaks", t_vfstest_on_ext2);
		gt_finish();
	}
	if (SYS2(__NR_stat64, "/mnt/MANY10K", &st) == 0) {
		gt_run("ten_thousand_files", t_ten_thousand_files);
		gt_run("umount", t_umount);
		gt_finish();
	}
	if (m < 0 || SYS2(__NR_stat64, "/mnt/NORMAL", &st) < 0) {
		probe_corrupt(m);
		gt_finish();
	}
	if (persist_present()) {
		printf("ext2test: second boot\n");
		gt_run("files_survived_power_off", t_files_survived);
		gt_run("umount", t_read_only_mount);
		gt_finish();
	}
	umnt();
	gt_run("mount_refused", t_mount_refused);
	gt_run("read_mke2fs_files", t_read_mke2fs_files);
	gt_run("statfs", t_statfs);
	gt_run("create_write_append_truncate", t_create_write_append_truncate);
	gt_run("rename_link_unlink_dirs", t_rename_link_unlink_dirs);
	gt_run("unlink_open_file", t_unlink_open_file);
	gt_run("many_files", t_many_files);
	gt_run("chmod_utimes_reach_disk", t_chmod_utimes_reach_disk);
	gt_run("xattr_blocks_freed", t_xattr_blocks_freed);
	gt_run("files_past_2_gib", t_files_past_2_gib);
	gt_run("triple_indirect_sparse", t_triple_indirect_sparse);
	gt_run("full_disk_enospc", t_full_disk_enospc);
	gt_run("read_only_mount", t_read_only_mount);
	gt_run("attrtest", t_attrtest);
	gt_run("leave_files_for_host", t_leave_files_for_host);
	gt_finish();
}
