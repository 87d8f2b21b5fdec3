/*
 * Private file mappings, on demand, sharing the file's pages: Linux 2.6's
 * filemap_nopage() and do_no_page() for MAP_PRIVATE, on smpix's scale.
 *
 * A region may be backed by a file (struct vma: file and pgoff). The first
 * touch of one of its pages comes here:
 *
 *   - a file system that keeps file data in frames of its own (ramfs: its
 *     pages are its page cache) lends the frame: mapped read-only, with one
 *     more reference in its count (kernel/mm/frame_refs.h), shared by every
 *     process that maps it. A region that may be written gets PTE_COW, so the
 *     first write copies it exactly as after fork (kernel/mm/cow.c). Until
 *     then a write() to the file shows in the mapping, as on Linux.
 *   - any other (ext2: only the buffer cache) has the page read into a fresh
 *     private frame, still only when touched. The read takes the file's
 *     i_mutex, which write() holds while its copy from user memory faults
 *     and takes mmap_sem: so the fault answers MM_FAULT_READ, its caller
 *     lets mmap_sem go and calls mm_fault_read(), then retries (Linux's
 *     VM_FAULT_RETRY). A ramfs hole goes the same way.
 *   - a page wholly past the end of the file is SIGBUS; the part of the last
 *     page past the end reads as zeros (both as Linux).
 *
 * The file system's reference keeps the frame while a mapping lets go of it;
 * a mapping's keeps it while the file system truncates or frees the file.
 * Neither frees the other's frame: the last frame_put() does.
 */
#include "kernel/mm/filemap.h"

#include "fs/file.h"
#include "fs/inode.h"
#include "fs/ramfs/ramfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/frame_refs.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/vma.h"
#include "kernel/uapi/mman.h"

physaddr_t page_cache_alloc(void)
{
	physaddr_t pa;

	if (!mm_frame_refs_init())
		return 0;
	pa = mm_zeroed_frame();
	if (pa)
		frame_set_one(pa);
	return pa;
}

void page_cache_get(physaddr_t pa)
{
	frame_get(pa);
}

void page_cache_put(physaddr_t pa)
{
	frame_put(pa);
}

/* Is page pgoff wholly past the end of f? */
static bool past_eof(struct file *f, uint32_t pgoff)
{
	return ((loff_t)pgoff << PAGE_SHIFT) >= ALIGN_UP(f->f_inode->i_size, PAGE_SIZE);
}

/*
 * A fresh frame holding page pgoff of f, read now (zeros past the end of the
 * file; a hole of ramfs reads as zeros too), with one reference; 0 with
 * *result set when there is none. Sleeps: no lock may be held, not even
 * mmap_sem, since a file system's read takes i_mutex, which write() holds
 * while its copy from user memory faults (docs/mm.md section 8).
 */
static physaddr_t read_frame(struct file *f, uint32_t pgoff, enum mm_fault_result *result)
{
	physaddr_t pa = mm_zeroed_frame();
	ssize_t n;

	if (!pa) {
		*result = MM_FAULT_OOM;
		return 0;
	}
	n = kernel_read(f, P2V(pa), PAGE_SIZE, (loff_t)pgoff << PAGE_SHIFT);
	if (n < 0) {
		pmm_free_page(pa);
		*result = MM_FAULT_SIGBUS;      /* an I/O error: Linux's VM_FAULT_SIGBUS */
		return 0;
	}
	frame_set_one(pa);
	return pa;
}

/* The region at va if it still maps page pgoff of f (munmap, mprotect may run meanwhile). Needs page_table_lock. */
static struct vma *still_maps(struct mm *mm, uintptr_t va, struct file *f, uint32_t pgoff)
{
	struct vma *v = vma_find(mm, va);

	return v && v->file == f && vma_pgoff_at(v, va) == pgoff ? v : NULL;
}

/*
 * Map frame pa (one reference, which the PTE takes or which is dropped) at
 * va for page pgoff of f; shared: the file system's own frame, copy-on-write.
 * Only page_table_lock: the regions change under it too, and an unmap clears
 * the region before the pages, so a page mapped here is seen by its passes.
 */
static enum mm_fault_result install(struct mm *mm, uintptr_t va, bool write, struct file *f,
				    uint32_t pgoff, physaddr_t pa, bool shared)
{
	enum mm_fault_result r = MM_FAULT_DONE;
	struct vma *v;
	pte_t *pte;

	ptl_lock(mm);
	pte = mm_pte_slot(mm, va, true);
	if (!pte) {
		r = MM_FAULT_OOM;               /* no page table */
	} else if (*pte & (PTE_P | PTE_ZAP) || !(v = still_maps(mm, va, f, pgoff))) {
		r = MM_FAULT_DONE;              /* mapped or being unmapped meanwhile, or moved: the access retries */
	} else if (v->prot == PROT_NONE || (write && !(v->prot & PROT_WRITE))) {
		r = MM_FAULT_BAD;               /* mprotect ran meanwhile */
	} else {
		bool writable = v->prot & PROT_WRITE;

		*pte = pa | PTE_P | PTE_U | (writable ? (shared ? PTE_COW : PTE_W) : 0);
		mm->npages++;
		pa = 0;                         /* the PTE holds the reference now */
		if (write && shared)
			r = mm_break_cow_locked(mm, pte, va);   /* the writer's own copy at once */
	}
	if (pa)
		frame_put(pa);
	ptl_unlock(mm);
	return r;
}

enum mm_fault_result filemap_fault(struct mm *mm, uintptr_t va, bool write, struct file *f,
				   uint32_t pgoff)
{
	physaddr_t pa;

	if (past_eof(f, pgoff))
		return MM_FAULT_SIGBUS;         /* wholly past the end of the file, as Linux */
	if (!ramfs_file_frame(f->f_inode, pgoff, &pa))
		return MM_FAULT_READ;           /* no frame to lend: mm_fault_read(), with no lock held */
	return install(mm, va, write, f, pgoff, pa, true);
}

enum mm_fault_result mm_fault_read(struct mm *mm, uintptr_t va, bool write)
{
	enum mm_fault_result r = MM_FAULT_DONE;
	struct file *f = NULL;
	uint32_t pgoff = 0;
	struct vma *v;
	physaddr_t pa;

	va = ALIGN_DOWN(va, PAGE_SIZE);
	ptl_lock(mm);
	v = vma_find(mm, va);
	if (v && v->file) {
		f = v->file;
		fget_ref(f);        /* the region may go while we read */
		pgoff = vma_pgoff_at(v, va);
	}
	ptl_unlock(mm);
	if (!f)
		return MM_FAULT_DONE;           /* unmapped meanwhile: the retry decides */
	pa = past_eof(f, pgoff) ? 0 : read_frame(f, pgoff, &r);
	if (pa)
		r = install(mm, va, write, f, pgoff, pa, false);
	else if (r == MM_FAULT_DONE)
		r = MM_FAULT_SIGBUS;
	fput(f);
	return r;
}
