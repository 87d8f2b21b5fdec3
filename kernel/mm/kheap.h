/* The kernel heap: kmalloc() and kfree() for objects of any size. */
#ifndef KERNEL_MM_KHEAP_H
#define KERNEL_MM_KHEAP_H

#include "kernel/types.h"

void kheap_init(void);
/* Returns 16-byte-aligned memory, or NULL when out of memory. Never sleeps. */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *p);

struct kheap_stats {
	unsigned long allocs, frees;
	unsigned long bytes_in_use;             /* as requested by callers */
	unsigned long pages_in_use;             /* pages held by the heap */
};
void kheap_get_stats(struct kheap_stats *st);

#endif
