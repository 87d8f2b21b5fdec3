/*
 * bcachetest: the buffer cache under load from several CPUs at once, for
 * lab 9 (docs/labs/lab9-buffer-cache.md). Run as init on a disk made by
 * tools/build/mkdisk.py --root (hda1: ext2; hda2: a scratch area written raw).
 *
 *   1. Each of N workers (N = the CPUs) gets its own REGION_BLOCKS blocks of
 *      hda2, filled with a pattern of its own and fsync()ed, and its own file
 *      on the ext2 of hda1 (mounted on /mnt): the cache holds them all.
 *   2. lock_stat is reset, then the workers, one pinned to each CPU, read
 *      their blocks of /dev/hda2 over and over (every read a hit: a lookup
 *      and a release in the cache, no disk), checking every byte, and now and
 *      then rewrite a block with a new pattern that their next reads must see.
 *   3. /proc/lock_stat is printed between two marker lines for the grader.
 *   4. The workers stream through the rest of hda2 at once, each its own
 *      part: more blocks than the cache holds when it is small (the grader
 *      boots with bcache_limit=1024, 1 MiB, on a 16 MiB disk: hda2 is 4 MiB;
 *      make disk's 64 MiB has more than the default 8 MiB), so that every
 *      CPU makes room and takes other buffers out of the cache while the
 *      others look theirs up: eviction under load.
 *   5. Every block and every file is checked once more, half of the files
 *      are removed and the ext2 unmounted (the host runs e2fsck -fn on it).
 *
 *   bcachetest [ROUNDS]      each worker reads its region ROUNDS times (default 16)
 *
 * Lines: "bcachetest: TEST ok|FAIL ...", "bcachetest: reads N" (reads made in
 * step 2, all workers), then the lock_stat block, then the summary.
 */
#include "gtest.h"

#include "kernel/uapi/fs.h"

#define KIB 1024
#define REGION_BLOCKS 96                /* per worker: 4 workers, 384 KiB, under even a 1 MiB cache */
#define MAX_WORKERS 8
#define CHUNK_BLOCKS 16                 /* blocks a read() asks for: 16 lookups per system call */
#define WRITE_EVERY 32                  /* a worker rewrites one block every this many block reads */
#define FILE_BYTES (24 * KIB)
#define STREAM_FIRST 1024               /* the streamed part of hda2: from 1 MiB (after the regions) ... */
#define STREAM_ID 16                    /* ... with patterns of "worker" STREAM_ID + w */
#define __NR_mount 21
#define __NR_umount2 52
#define __NR_unlink 10

static int workers = 1, rounds = 16;
static char block[KIB], want[KIB], file_buf[FILE_BYTES];

static long gt_lseek(int fd, long off, int whence) { return SYS3(__NR_lseek, fd, off, whence); }

/* The pattern of a block: worker w's block b in its version v; never the same for two (w, b, v). */
static void pattern(char *p, int w, int b, int v)
{
	for (int i = 0; i < KIB; i++)
		p[i] = (char)((i * 31 + w * 101 + b * 7 + v * 53 + (i >> 5) * (b + 1)) & 0xff);
}

/* Worker w's block b, as a byte offset in hda2. */
static long block_at(int w, int b)
{
	return ((long)w * REGION_BLOCKS + b) * KIB;
}

static bool pread_block(int fd, long at, char *p)
{
	return gt_lseek(fd, at, 0) == at && gt_read(fd, p, KIB) == KIB;
}

static bool pwrite_block(int fd, long at, const char *p)
{
	return gt_lseek(fd, at, 0) == at && gt_write(fd, p, KIB) == KIB;
}

static void file_name(char *name, int w)
{
	memcpy(name, "/mnt/bcache-0.bin", sizeof("/mnt/bcache-0.bin"));
	name[12] = (char)('0' + w);
}

static void file_pattern(int w)
{
	for (int i = 0; i < FILE_BYTES; i++)
		file_buf[i] = (char)((i * 13 + w * 29 + i / 1021) & 0xff);
}

static void t_regions_written(void)
{
	int fd = gt_open("/dev/hda2", O_RDWR);

	CHECK(fd >= 0);
	for (int w = 0; w < workers; w++)
		for (int b = 0; b < REGION_BLOCKS; b++) {
			pattern(block, w, b, 0);
			CHECK(pwrite_block(fd, block_at(w, b), block));
		}
	CHECK(SYS1(__NR_fsync, fd) == 0);
	gt_close(fd);
}

/* hda2's blocks from STREAM_FIRST to its end, split among the workers: worker w's first and count. */
static long stream_blocks;

static void stream_part(int w, long *first, long *count)
{
	long per = (stream_blocks / workers) / CHUNK_BLOCKS * CHUNK_BLOCKS;

	*first = STREAM_FIRST + w * per;
	*count = per;
}

static void t_stream_area_written(void)
{
	static char chunk[CHUNK_BLOCKS * KIB];
	int fd = gt_open("/dev/hda2", O_RDWR);
	uint64_t bytes = 0;

	CHECK(fd >= 0);
	CHECK(gt_ioctl(fd, BLKGETSIZE64, &bytes) == 0);
	stream_blocks = (long)(bytes / KIB) - STREAM_FIRST;
	CHECK(stream_blocks >= 2 * 1024);       /* 2 MiB at least: twice the grader's cache */
	for (int w = 0; w < workers; w++) {
		long first, count;

		stream_part(w, &first, &count);
		for (long b = 0; b < count; b += CHUNK_BLOCKS) {
			for (int i = 0; i < CHUNK_BLOCKS; i++)
				pattern(chunk + i * KIB, STREAM_ID + w, (int)(b + i), 0);
			CHECK(gt_lseek(fd, (first + b) * KIB, 0) == (first + b) * KIB);
			CHECK(gt_write(fd, chunk, sizeof(chunk)) == (long)sizeof(chunk));
		}
	}
	CHECK(SYS1(__NR_fsync, fd) == 0);
	gt_close(fd);
}

/* One worker's stream: its part of hda2 read once, every byte checked. 0, or 2: a read failed, 3: wrong. */
static int streamer(int w)
{
	static char chunk[CHUNK_BLOCKS * KIB];
	int fd = gt_open("/dev/hda2", O_RDONLY);
	long first, count;

	if (fd < 0)
		return 1;
	stream_part(w, &first, &count);
	for (long b = 0; b < count; b += CHUNK_BLOCKS) {
		if (gt_lseek(fd, (first + b) * KIB, 0) != (first + b) * KIB ||
		    gt_read(fd, chunk, sizeof(chunk)) != (long)sizeof(chunk))
			return 2;
		for (int i = 0; i < CHUNK_BLOCKS; i++) {
			pattern(want, STREAM_ID + w, (int)(b + i), 0);
			if (memcmp(chunk + i * KIB, want, KIB) != 0) {
				printf("bcachetest: streamer %d: block %ld read back wrong\n", w, first + b + i);
				return 3;
			}
		}
	}
	gt_close(fd);
	return 0;
}

/* Every worker runs fn(w) pinned to CPU w; true if they all exited 0. */
static bool run_workers(int (*fn)(int w))
{
	int pids[MAX_WORKERS], failed = 0;

	for (int w = 0; w < workers; w++) {
		pids[w] = gt_fork();
		if (pids[w] < 0)
			return false;
		if (pids[w] == 0) {
			gt_pin_to_cpu(w);
			gt_exit(fn(w));
		}
	}
	for (int w = 0; w < workers; w++) {
		int st = gt_wait(pids[w]);

		if (st != 0) {
			printf("bcachetest: worker %d ended with status %#x\n", w, st);
			failed++;
		}
	}
	return failed == 0;
}

static void t_streams_evict_in_parallel(void)
{
	CHECK(run_workers(streamer));
}

static void t_files_written(void)
{
	char name[32];

	CHECK(SYS4(__NR_mount, "/dev/hda1", "/mnt", "ext2", 0) == 0);
	for (int w = 0; w < workers; w++) {
		int fd;

		file_name(name, w);
		file_pattern(w);
		fd = (int)SYS3(__NR_open, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		CHECK(fd >= 0);
		CHECK(gt_write(fd, file_buf, FILE_BYTES) == FILE_BYTES);
		CHECK(gt_close(fd) == 0);
	}
}

/*
 * One worker's load: its blocks, CHUNK_BLOCKS to a read() (each block one
 * lookup and one release in the cache), round after round, every byte
 * checked; after each chunk, one block in every WRITE_EVERY read is rewritten
 * with its next version. Exit status: 0, or what went wrong (1: no device,
 * 2: a read failed, 3: wrong bytes, 4: a write failed).
 */
static int worker(int w)
{
	static char chunk[CHUNK_BLOCKS * KIB];
	static int version[REGION_BLOCKS];
	int fd = gt_open("/dev/hda2", O_RDWR);
	long reads = 0;

	if (fd < 0)
		return 1;
	for (int r = 0; r < rounds; r++)
		for (int first = 0; first < REGION_BLOCKS; first += CHUNK_BLOCKS) {
			if (gt_lseek(fd, block_at(w, first), 0) != block_at(w, first) ||
			    gt_read(fd, chunk, sizeof(chunk)) != (long)sizeof(chunk))
				return 2;
			for (int b = first; b < first + CHUNK_BLOCKS; b++) {
				pattern(want, w, b, version[b]);
				if (memcmp(chunk + (b - first) * KIB, want, KIB) != 0) {
					printf("bcachetest: worker %d: block %d (version %d) read back wrong\n", w, b,
					       version[b]);
					return 3;
				}
			}
			for (int b = first; b < first + CHUNK_BLOCKS; b++) {
				if (++reads % WRITE_EVERY == 0) {
					int victim = (int)((reads / WRITE_EVERY * 37) % REGION_BLOCKS);

					pattern(want, w, victim, ++version[victim]);
					if (!pwrite_block(fd, block_at(w, victim), want))
						return 4;
				}
			}
		}
	gt_close(fd);
	return 0;
}

/* The versions each worker's blocks end at: worker() is deterministic, so the parent replays it. */
static void final_versions(int *version)
{
	long reads = 0;

	for (int b = 0; b < REGION_BLOCKS; b++)
		version[b] = 0;
	for (long n = 0; n < (long)rounds * REGION_BLOCKS; n++)
		if (++reads % WRITE_EVERY == 0)
			version[(reads / WRITE_EVERY * 37) % REGION_BLOCKS]++;
}

static void t_parallel_reads_and_writes(void)
{
	bool ok;

	CHECK(gt_write_file("/proc/lock_stat", "0\n") > 0);    /* count only what follows */
	ok = run_workers(worker);
	printf("bcachetest: reads %ld\n", (long)workers * rounds * REGION_BLOCKS);
	CHECK(ok);
}

/* /proc/lock_stat as it is now, between two marker lines the grader looks for. */
static void print_lock_stat(void)
{
	static char text[64 * KIB];
	long n = gt_read_file("/proc/lock_stat", text, sizeof(text));

	printf("bcachetest: lock_stat begin\n");
	if (n > 0)
		gt_write(1, text, (size_t)n);
	printf("bcachetest: lock_stat end\n");
}

static void t_every_block_still_right(void)
{
	static int version[REGION_BLOCKS];
	int fd = gt_open("/dev/hda2", O_RDONLY);

	CHECK(fd >= 0);
	final_versions(version);
	for (int w = 0; w < workers; w++)
		for (int b = 0; b < REGION_BLOCKS; b++) {
			CHECK(pread_block(fd, block_at(w, b), block));
			pattern(want, w, b, version[b]);
			CHECK(memcmp(block, want, KIB) == 0);
		}
	gt_close(fd);
}

static void t_files_read_back_and_removed(void)
{
	static char back[FILE_BYTES];
	char name[32];

	for (int w = 0; w < workers; w++) {
		int fd;

		file_name(name, w);
		file_pattern(w);
		fd = gt_open(name, O_RDONLY);
		CHECK(fd >= 0);
		CHECK(gt_read(fd, back, FILE_BYTES) == FILE_BYTES);
		CHECK(memcmp(back, file_buf, FILE_BYTES) == 0);
		gt_close(fd);
		if (w % 2)              /* half of them left on the disk, for e2fsck to see */
			CHECK(SYS1(__NR_unlink, name) == 0);
	}
	CHECK(SYS2(__NR_umount2, "/mnt", 0) == 0);
}

int main(int argc, char **argv)
{
	gt_start("bcachetest");
	if (argc > 1 && atoi(argv[1]) > 0)
		rounds = atoi(argv[1]);
	workers = MIN(gt_count_cpus(), MAX_WORKERS);
	printf("bcachetest: %d workers, %d rounds of %d blocks each\n", workers, rounds, REGION_BLOCKS);
	gt_run("regions_written", t_regions_written);
	gt_run("stream_area_written", t_stream_area_written);
	gt_run("files_written", t_files_written);
	gt_run("parallel_reads_and_writes", t_parallel_reads_and_writes);
	print_lock_stat();
	gt_run("streams_evict_in_parallel", t_streams_evict_in_parallel);
	gt_run("every_block_still_right", t_every_block_still_right);
	gt_run("files_read_back_and_removed", t_files_read_back_and_removed);
	gt_finish();
}
