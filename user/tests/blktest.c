/*
 * blktest: the block device files and the buffer cache, from user space, on
 * the disks tools/test/cases/56_disk.py attaches: hda (16 MiB, partitions
 * hda1 and hda2 from tools/build/mkdisk.py, hda2 the last quarter, a scratch
 * area) and hdc (8 MiB, no partition table).
 *
 * It runs in two boots on one image. The first finds no marker at the start
 * of hda2: it runs every test, then leaves data for the second: block A
 * written and sync()ed, block B only written (the power-off must write it),
 * and the marker. The second boot finds the marker and checks A and B. The
 * harness also compares the image's bytes on the host after the first boot.
 */
#include "gtest.h"

#include "kernel/uapi/fs.h"

#define KIB 1024
#define MARKER "SMPIX-BLKTEST-PERSIST"
#define A_AT (4 * KIB)                  /* in hda2 */
#define B_AT (1024 * KIB)
#define AB_LEN (8 * KIB)
#define TEST_AT (2048 * KIB)            /* where the first boot's tests write in hda2 */
#define TWO_DISK_LEN (256 * KIB)

static char buf[TWO_DISK_LEN], back[TWO_DISK_LEN];

static long gt_lseek(int fd, long off, int whence) { return SYS3(__NR_lseek, fd, off, whence); }

static void fill(char *p, long len, long at, int seed)
{
	for (long i = 0; i < len; i++)
		p[i] = (char)(((at + i) * 7 + seed + (at + i) / 4099) & 0xff);
}

static bool same(const char *p, long len, long at, int seed)
{
	for (long i = 0; i < len; i++)
		if (p[i] != (char)(((at + i) * 7 + seed + (at + i) / 4099) & 0xff))
			return false;
	return true;
}

static long pwrite_all(int fd, const void *p, long len, long at)
{
	if (gt_lseek(fd, at, 0) != at)
		return -1;
	return gt_write(fd, p, (size_t)len);
}

static long pread_all(int fd, void *p, long len, long at)
{
	if (gt_lseek(fd, at, 0) != at)
		return -1;
	return gt_read(fd, p, (size_t)len);
}

static uint64_t size_of(const char *dev)
{
	uint64_t bytes = 0;
	int fd = gt_open(dev, O_RDONLY);

	if (fd < 0)
		return 0;
	if (gt_ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		bytes = 0;
	gt_close(fd);
	return bytes;
}

static void t_sizes(void)
{
	int fd = gt_open("/dev/hda2", O_RDWR);
	uint64_t bytes = 0;
	unsigned long sectors = 0;
	int ssz = 0;

	CHECK(fd >= 0);
	CHECK(gt_ioctl(fd, BLKGETSIZE64, &bytes) == 0);
	CHECK(gt_ioctl(fd, BLKGETSIZE, &sectors) == 0);
	CHECK(gt_ioctl(fd, BLKSSZGET, &ssz) == 0);
	CHECK(bytes == 4096 * KIB);     /* the last quarter of 16 MiB */
	CHECK(sectors * 512 == bytes);
	CHECK(ssz == 512);
	CHECK(gt_lseek(fd, 0, 2) == (long)bytes);       /* SEEK_END is the device's size */
	CHECK(size_of("/dev/hda") == 16384 * KIB);
	CHECK(size_of("/dev/hdc") == 8192 * KIB);
	gt_close(fd);
}

static void t_bad_ioctls(void)
{
	int fd = gt_open("/dev/hda2", O_RDONLY);

	CHECK(fd >= 0);
	CHECK(gt_ioctl(fd, 0x5401, buf) == -ENOTTY);            /* TCGETS: not a tty */
	CHECK(gt_ioctl(fd, 0x12ff, buf) == -ENOTTY);            /* no such block ioctl */
	CHECK(gt_ioctl(fd, BLKGETSIZE64, BAD_UNMAP) == -EFAULT);
	CHECK(gt_ioctl(fd, BLKGETSIZE64, BAD_KERNEL) == -EFAULT);
	gt_close(fd);
	CHECK(gt_open("/dev/hdb", O_RDONLY) == -ENOENT);        /* no such disk, no node */
}

/* A pattern written at an offset that is no block's start, read back after fsync. */
static void t_write_read(void)
{
	int fd = gt_open("/dev/hda2", O_RDWR);
	long at = TEST_AT + 100, len = 64 * KIB + 300;

	CHECK(fd >= 0);
	fill(buf, len, at, 1);
	CHECK(pwrite_all(fd, buf, len, at) == len);
	CHECK(SYS1(__NR_fsync, fd) == 0);
	memset(back, 0, (size_t)len);
	CHECK(pread_all(fd, back, len, at) == len);
	CHECK(same(back, len, at, 1));
	gt_close(fd);
}

/* The same sectors through the partition and through the whole disk. */
static void t_across_partitions(void)
{
	long p2_start = (long)(size_of("/dev/hda") - size_of("/dev/hda2"));
	long at = TEST_AT + 100, len = 64 * KIB + 300;
	int fd = gt_open("/dev/hda", O_RDONLY);

	CHECK(p2_start == 12288 * KIB);
	CHECK(fd >= 0);
	memset(back, 0, (size_t)len);
	CHECK(pread_all(fd, back, len, p2_start + at) == len);
	CHECK(same(back, len, at, 1));
	gt_close(fd);
	/* And the other way: written through the disk, read through the partition (after its close). */
	fd = gt_open("/dev/hda", O_RDWR);
	fill(buf, 3000, at, 2);
	CHECK(pwrite_all(fd, buf, 3000, p2_start + at) == 3000);
	gt_close(fd);                   /* the last close writes it back */
	fd = gt_open("/dev/hda2", O_RDONLY);
	CHECK(pread_all(fd, back, 3000, at) == 3000);
	CHECK(same(back, 3000, at, 2));
	gt_close(fd);
}

static void t_end_of_device(void)
{
	int fd = gt_open("/dev/hda2", O_RDWR);
	long end = 4096 * KIB;

	CHECK(fd >= 0);
	CHECK(pread_all(fd, back, 100, end) == 0);              /* read at the end: 0 bytes */
	CHECK(pread_all(fd, back, 100, end + 4096) == 0);       /* and past it */
	CHECK(pwrite_all(fd, buf, 100, end) == -ENOSPC);        /* write at the end: no space */
	CHECK(pwrite_all(fd, buf, 100, end - 10) == 10);        /* crossing it: cut short */
	CHECK(pread_all(fd, back, 100, end - 10) == 10);
	CHECK(memcmp(back, buf, 10) == 0);
	CHECK(gt_lseek(fd, -1, 0) == -EINVAL);
	gt_close(fd);
}

/* One disk each, pinned to two CPUs: write, sync, read back. */
static void one_disk(const char *dev, long at, int seed)
{
	int fd = gt_open(dev, O_RDWR);
	bool ok;

	if (fd < 0)
		gt_exit(2);
	fill(buf, TWO_DISK_LEN, at, seed);
	if (pwrite_all(fd, buf, TWO_DISK_LEN, at) != TWO_DISK_LEN || SYS1(__NR_fsync, fd) != 0)
		gt_exit(3);
	SYS2(__NR_ioctl, fd, BLKFLSBUF);        /* forget the cached copy: the read goes to the disk */
	ok = pread_all(fd, back, TWO_DISK_LEN, at) == TWO_DISK_LEN && same(back, TWO_DISK_LEN, at, seed);
	gt_close(fd);
	gt_exit(ok ? 0 : 4);
}

static void t_two_disks_two_cpus(void)
{
	int cpus = gt_count_cpus(), a, b;

	SKIP_IF(cpus < 2, "one CPU");
	a = gt_fork();
	if (a == 0) {
		gt_pin_to_cpu(0);
		one_disk("/dev/hda2", 3072 * KIB, 3);
	}
	b = gt_fork();
	if (b == 0) {
		gt_pin_to_cpu(1);
		one_disk("/dev/hdc", 0, 4);
	}
	CHECK(a > 0 && b > 0);
	CHECK(gt_wait(a) == 0);
	CHECK(gt_wait(b) == 0);
}

/* Requests hdc has been sent, both ways. */
static long hdc_requests(void)
{
	return gt_ide_field("hdc", 3) + gt_ide_field("hdc", 4);
}

/*
 * A sequential run written to an idle disk and fsync()ed, then read back in
 * one read(): each leaves as requests of 64 KiB (BLK_MAX_SECTORS), 4 for 256
 * blocks, because the first buffer plugs the idle queue and the others merge
 * into its request before the disk starts. Unplugged (blk_plug=0) the first
 * buffer starts the disk alone, and the read takes 8 to 66. One more is
 * allowed: on a slow (loaded) host the submitting loop can outlast the
 * plug's 3-10 ms, and kblockd then starts the disk mid-batch, which splits
 * one request in two. The write-back is only held to "merged" (at least 16
 * blocks a request on average): its sorted batch merges behind a request in
 * flight even unplugged (5 requests), and on a loaded host fsync's batch
 * was seen split into 7, once into 34: a vCPU the host stops mid-batch lets
 * the emulated disk finish, and each later buffer then finds it idle. The
 * host can only add splits, so the write and the read are each tried up to
 * three times and judged on their best.
 */
static void t_sequential_run_merges(void)
{
	long blocks = TWO_DISK_LEN / KIB, most = TWO_DISK_LEN / (64 * KIB), at = 4096 * KIB;
	long before, wrote, read, plugs = gt_ide_field("ide1", 4);
	int fd = gt_open("/dev/hdc", O_RDWR);

	CHECK(fd >= 0);
	CHECK(gt_ide_field("ide1", 1) >= 0);       /* the queue's line is there */
	fill(buf, TWO_DISK_LEN, at, 7);
	wrote = -1;
	for (int attempt = 0; attempt < 3 && (wrote < 1 || wrote > blocks / 16); attempt++) {
		long n;

		CHECK(pwrite_all(fd, buf, TWO_DISK_LEN, at) == TWO_DISK_LEN);
		before = hdc_requests();
		CHECK(SYS1(__NR_fsync, fd) == 0);
		n = hdc_requests() - before;
		if (attempt > 0)
			printf("blktest: write-back again (the last went in %ld requests)\n", wrote);
		if (wrote < 1 || n < wrote)
			wrote = n;
	}
	read = -1;
	for (int attempt = 0; attempt < 3 && (read < 1 || read > most + 1); attempt++) {
		long n;

		SYS2(__NR_ioctl, fd, BLKFLSBUF);
		before = hdc_requests();
		CHECK(pread_all(fd, back, TWO_DISK_LEN, at) == TWO_DISK_LEN);
		n = hdc_requests() - before;
		CHECK(same(back, TWO_DISK_LEN, at, 7));
		if (attempt > 0)
			printf("blktest: read again (the last went in %ld requests)\n", read);
		if (read < 1 || n < read)
			read = n;
	}
	printf("blktest: %ld blocks written in %ld requests, read in %ld (hdc); ide1 plugged %ld times\n",
	       blocks, wrote, read, gt_ide_field("ide1", 4) - plugs);
	CHECK(wrote >= 1 && wrote <= blocks / 16);
	CHECK(read >= 1 && read <= most + 1);
	CHECK(gt_ide_field("ide1", 4) > plugs);
	gt_close(fd);
}

/* The first boot's last step: A written and synced, B only written, then the marker. */
static void t_leave_data_for_next_boot(void)
{
	int fd = gt_open("/dev/hda2", O_RDWR);

	CHECK(fd >= 0);
	fill(buf, AB_LEN, A_AT, 5);
	CHECK(pwrite_all(fd, buf, AB_LEN, A_AT) == AB_LEN);
	CHECK(pwrite_all(fd, MARKER, sizeof(MARKER), 0) == (long)sizeof(MARKER));
	CHECK(SYS0(__NR_sync) == 0);
	fill(buf, AB_LEN, B_AT, 6);
	CHECK(pwrite_all(fd, buf, AB_LEN, B_AT) == AB_LEN);
	/* Still open: B stays dirty in the cache, for init's exit and the power-off to write. */
	printf("blktest: left A synced, B dirty\n");
}

static void t_data_survived_power_off(void)
{
	int fd = gt_open("/dev/hda2", O_RDONLY);

	CHECK(fd >= 0);
	CHECK(pread_all(fd, back, AB_LEN, A_AT) == AB_LEN);
	CHECK(same(back, AB_LEN, A_AT, 5));
	CHECK(pread_all(fd, back, AB_LEN, B_AT) == AB_LEN);
	CHECK(same(back, AB_LEN, B_AT, 6));
	gt_close(fd);
}

static bool marker_present(void)
{
	char m[sizeof(MARKER)];
	int fd = gt_open("/dev/hda2", O_RDONLY);
	bool yes = fd >= 0 && pread_all(fd, m, sizeof(m), 0) == (long)sizeof(m) && memcmp(m, MARKER, sizeof(m)) == 0;

	if (fd >= 0)
		gt_close(fd);
	return yes;
}

int main(void)
{
	gt_start("blktest");
	if (marker_present()) {
		printf("blktest: second boot\n");
		gt_run("data_survived_power_off", t_data_survived_power_off);
		gt_finish();
	}
	gt_run("sizes", t_sizes);
	gt_run("bad_ioctls", t_bad_ioctls);
	gt_run("write_read", t_write_read);
	gt_run("across_partitions", t_across_partitions);
	gt_run("end_of_device", t_end_of_device);
	gt_run("two_disks_two_cpus", t_two_disks_two_cpus);
	gt_run("sequential_run_merges", t_sequential_run_merges);
	gt_run("leave_data_for_next_boot", t_leave_data_for_next_boot);
	gt_finish();
}
