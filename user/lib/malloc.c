/*
 * malloc over brk: a first-fit list of free blocks in address order, merged
 * with their neighbours on free(). Each block starts with a header holding
 * its size; the heap only grows (sbrk), as xv6's umalloc does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct block {
	size_t size;                    /* bytes, header included, a multiple of 16 */
	struct block *next;             /* the next free block (free blocks only) */
};

#define HDR   16                    /* header size, keeping payloads 16-byte aligned */
#define GROW  (64 * 1024)           /* ask the kernel for at least this much at a time */

static struct block *free_list;    /* free blocks, sorted by address */

/* Put b on the free list, merging with the blocks just before and after it. */
static void insert_free(struct block *b)
{
	struct block **pp = &free_list, *prev = NULL;

	while (*pp && *pp < b) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	b->next = *pp;
	*pp = b;
	if (b->next && (char *)b + b->size == (char *)b->next) {
		b->size += b->next->size;
		b->next = b->next->next;
	}
	if (prev && (char *)prev + prev->size == (char *)b) {
		prev->size += b->size;
		prev->next = b->next;
	}
}

static int grow(size_t need)
{
	size_t n = need > GROW ? need : GROW;
	uintptr_t cur = (uintptr_t)sbrk(0);
	size_t pad = (HDR - cur % HDR) % HDR;   /* the first block starts aligned */
	char *p = sbrk(n + pad);
	struct block *b;

	if (p == (void *)-1)
		return -1;
	b = (struct block *)(p + pad);
	b->size = n;
	insert_free(b);
	return 0;
}

void *malloc(size_t n)
{
	size_t need;
	struct block **pp, *b;

	if (n > 0x7fff0000u) {
		errno = ENOMEM;
		return NULL;
	}
	need = (n + HDR + HDR - 1) & ~(size_t)(HDR - 1);
	for (;;) {
		for (pp = &free_list; *pp; pp = &(*pp)->next) {
			b = *pp;
			if (b->size < need)
				continue;
			if (b->size - need >= 2 * HDR) {        /* split: keep the front free */
				b->size -= need;
				b = (struct block *)((char *)b + b->size);
				b->size = need;
			} else {
				*pp = b->next;
			}
			return (char *)b + HDR;
		}
		if (grow(need) < 0) {
			errno = ENOMEM;
			return NULL;
		}
	}
}

void free(void *p)
{
	if (p)
		insert_free((struct block *)((char *)p - HDR));
}

void *calloc(size_t count, size_t size)
{
	void *p;

	if (size && count > 0x7fff0000u / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(count * size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	size_t have;
	void *q;

	if (!p)
		return malloc(n);
	have = ((struct block *)((char *)p - HDR))->size - HDR;
	if (n <= have)
		return p;
	q = malloc(n);
	if (q) {
		memcpy(q, p, have);
		free(p);
	}
	return q;
}
