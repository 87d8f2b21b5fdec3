/*
 * Private file mappings on demand (docs/mm.md section 9): the fault on an
 * absent page of a file region, and the frames a file system lends to
 * mappings (ramfs keeps its file data in such frames: its page cache).
 */
#ifndef KERNEL_MM_FILEMAP_H
#define KERNEL_MM_FILEMAP_H

#include "kernel/mm/mm.h"

/*
 * A zeroed frame for a file system's page cache, holding one reference (the
 * file system's) in the count of kernel/mm/frame_refs.h; 0 when out of memory.
 * A mapping takes a reference of its own (page_cache_get), so the frame
 * lives until the file system and every mapping have let it go.
 */
physaddr_t page_cache_alloc(void);
void page_cache_get(physaddr_t pa);
/* Drop one reference; the last frees the frame. */
void page_cache_put(physaddr_t pa);

/*
 * The absent page va of a region mapping page pgoff of file f. Takes page_table_lock itself, and never holds it
 * while it reads the file. The caller holds mmap_sem for reading (or, in
 * atomic context, nothing: see kernel/mm/fault.c).
 */
enum mm_fault_result filemap_fault(struct mm *mm, uintptr_t va, bool write, struct file *f,
				   uint32_t pgoff);

#endif
