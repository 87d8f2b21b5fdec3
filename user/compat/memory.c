/*
 * Big blocks from glibc's malloc (above its 128 KiB threshold they come from
 * mmap, grow with mremap, and go back with munmap) and mprotect, caught with
 * a SIGSEGV handler. Built with gcc -m32 -static; passes on Linux and smpix.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf back;

static void on_segv(int sig)
{
	siglongjmp(back, sig);
}

/* Fill n bytes with a pattern seeded by k, or check it: 0 when it matches. */
static int pattern(unsigned char *p, size_t n, unsigned k, int check)
{
	for (size_t i = 0; i < n; i += 97) {
		unsigned char want = (unsigned char)(i * 7 + k);

		if (check && p[i] != want)
			return -1;
		p[i] = want;
	}
	return 0;
}

static int big_blocks(void)
{
	size_t sizes[] = { 256 << 10, 1 << 20, 3 << 20 };
	unsigned char *blocks[3];
	char *heap_end = sbrk(0);
	int outside = 0;

	for (int i = 0; i < 3; i++) {
		blocks[i] = malloc(sizes[i]);
		if (!blocks[i])
			return -1;
		/* An mmap'd block lies far from the brk heap's end. */
		outside += (char *)blocks[i] > heap_end + (64 << 20) || (char *)blocks[i] + sizes[i] < heap_end - (64 << 20);
		pattern(blocks[i], sizes[i], i, 0);
	}
	for (int i = 0; i < 3; i++)
		if (pattern(blocks[i], sizes[i], i, 1) != 0)
			return -2;
	/* Growing an mmap'd block: glibc asks mremap to move it, contents and all. */
	blocks[1] = realloc(blocks[1], 6 << 20);
	if (!blocks[1] || pattern(blocks[1], 1 << 20, 1, 1) != 0)
		return -3;
	memset(blocks[1] + (1 << 20), 0x5a, 5 << 20);
	for (int i = 0; i < 3; i++)
		free(blocks[i]);
	printf("memory: %d of 3 big blocks were mmap'd, filled, checked, grown and freed\n", outside);
	return 0;
}

static int protect(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sigaction sa;
	volatile char *p;
	int caught;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) != 0)
		return -1;
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -2;
	p[0] = 'a';
	if (mprotect((void *)p, page, PROT_READ) != 0)
		return -3;
	caught = sigsetjmp(back, 1);
	if (caught == 0) {
		p[0] = 'b';
		return -4;      /* the write went through a read-only page */
	}
	if (caught != SIGSEGV || p[0] != 'a')
		return -5;
	p[page] = 'c';          /* the second page kept its PROT_WRITE */
	if (mprotect((void *)p, page, PROT_READ | PROT_WRITE) != 0)
		return -6;
	p[0] = 'd';
	if (p[0] != 'd' || munmap((void *)p, 2 * page) != 0)
		return -7;
	printf("memory: mprotect read-only, SIGSEGV caught, writable again\n");
	return 0;
}

int main(void)
{
	int r;

	if ((r = big_blocks()) != 0) {
		printf("memory: big blocks failed (%d)\n", r);
		return 1;
	}
	if ((r = protect()) != 0) {
		printf("memory: mprotect failed (%d)\n", r);
		return 1;
	}
	printf("memory: all ok\n");
	return 0;
}
