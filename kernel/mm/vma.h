/* The list of mapped regions of an address space (struct vma, kernel/mm/mm.h). All need page_table_lock (and mmap_sem for writing, to change them). */
#ifndef KERNEL_MM_VMA_H
#define KERNEL_MM_VMA_H

#include "kernel/mm/mm.h"

/* The region holding va, or NULL. */
struct vma *vma_find(struct mm *mm, uintptr_t va);
/* Does [start, end) meet some region? */
bool vma_meets(struct mm *mm, uintptr_t start, uintptr_t end);
/* Does [start, end) meet no region (and not the heap)? */
bool vma_range_free(struct mm *mm, uintptr_t start, uintptr_t end);
/* Is every page of [start, end) inside some region? */
bool vma_range_covered(struct mm *mm, uintptr_t start, uintptr_t end);
/* Make [start, end) one region with prot, replacing whatever regions were there. -ENOMEM when full. */
int vma_set(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot);
/* The same for a private mapping of file f from page pgoff (f NULL: anonymous); takes a reference to f. */
int vma_set_file(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot, struct file *f,
		 uint32_t pgoff);
/* Give every region in [start, end) prot, keeping its file (mprotect). -ENOMEM when a split finds no slot. */
int vma_protect(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot);
/* The file page a file region maps at va. */
static inline uint32_t vma_pgoff_at(const struct vma *v, uintptr_t va)
{
	return v->pgoff + (uint32_t)((va - v->start) >> PAGE_SHIFT);
}
/* fput() the files of the regions removed meanwhile: after page_table_lock, under mmap_sem (as Linux's remove_vma()). */
void vma_put_files(struct mm *mm);
/* A new reference to every file the regions of mm hold (fork copied the array). Any lock. */
void vma_get_files(struct mm *mm);
/* Drop every region and its file (the last user of mm is gone: no lock needed). */
void vma_drop_all(struct mm *mm);
/* Remove [start, end) from the regions (splitting the ones it cuts). -ENOMEM when a split finds no slot. */
int vma_remove(struct mm *mm, uintptr_t start, uintptr_t end);
/* A free gap of len bytes: at hint if it fits there, else the highest below USER_MMAP_TOP; 0 if none. */
uintptr_t vma_find_gap(struct mm *mm, uintptr_t hint, size_t len);
/* The lowest and highest address mmap places regions at (the stack gap is above, the program below). */
#define USER_MMAP_TOP  USER_BRK_MAX
#define USER_MMAP_MIN  0x00010000       /* Linux's mmap_min_addr: page 0 stays unmapped */

#endif
