/* User address spaces: one page directory per process, 4 KiB user pages, brk, fork's copy. */
#ifndef KERNEL_MM_MM_H
#define KERNEL_MM_MM_H

#include "kernel/mm/memlayout.h"
#include "kernel/mm/vm.h"
#include "kernel/locking/rwsem.h"
#include "kernel/locking/spinlock.h"
#include "kernel/types.h"

/*
 * The user half of every address space (docs/syscalls.md has the picture):
 *   0x08048000            program text and data (from the ELF headers)
 *   brk_start .. brk      the heap, moved by brk(); its pages come at the first access
 *   ... unmapped ...      mmap's regions, top-down from USER_BRK_MAX (kernel/mm/vma.h)
 *   USER_STACK_TOP - USER_STACK_SIZE .. USER_STACK_TOP   the stack
 */
#define USER_TEXT_BASE   0x08048000
#define USER_STACK_TOP   USER_TOP
#define USER_STACK_SIZE  (128 * 1024)
#define USER_BRK_MAX     (USER_STACK_TOP - USER_STACK_SIZE - 0x01000000)  /* 16 MiB guard gap */

/*
 * A mapped region: the program's segments, the stack, and each mmap(). Its
 * pages may be absent: a fault inside an anonymous region brings a zeroed
 * frame (kernel/mm/vma.c, docs/mm.md section 7).
 */
struct file;
struct vma {
	uintptr_t start, end;           /* page-aligned, start < end */
	unsigned prot;                  /* PROT_READ | PROT_WRITE | PROT_EXEC (kernel/uapi/mman.h) */
	/*
	 * A private file mapping (exec's segments, mmap of a file): the file,
	 * referenced, and the file page at start. NULL: anonymous. Its pages come
	 * on demand from the file (kernel/mm/filemap.c, docs/mm.md section 9).
	 */
	struct file *file;
	uint32_t pgoff;
};
/* Regions per address space; one more is -ENOMEM, as at Linux's max_map_count. */
#define MM_VMAS_MAX 128

/*
 * An address space. Two locks, as in Linux 2.6 (docs/mm.md section 8 has
 * who takes what, and why):
 *
 *   mmap_sem          a reader-writer semaphore (sleeps). Held for writing
 *                     by whoever changes the region list or the break, or
 *                     unmaps or write-protects pages (mmap, munmap, mprotect,
 *                     mremap, brk, madvise, fork's copy, exec's setup); for
 *                     reading by a page fault, so the faults of several
 *                     threads run at once. Never taken twice by one task.
 *   page_table_lock   a spinlock, inside mmap_sem: the page tables below
 *                     USER_TOP and npages. Held for one page table's worth of
 *                     work at most, never while a page is allocated and zeroed.
 *
 * The region list and brk change with BOTH held, so either one is enough to
 * read them: a fault in atomic context (a futex word read under a bucket
 * lock) cannot sleep for mmap_sem and reads them under page_table_lock alone.
 */
struct mm {
	pde_t *pgdir;                   /* page directory (direct-map address) */
	struct rw_semaphore mmap_sem;
	spinlock_t page_table_lock;
	uintptr_t brk_start;            /* page-aligned end of the program's segments */
	uintptr_t brk;                  /* current break: [brk_start, brk) is heap */
	unsigned npages;                /* user pages mapped (not counting page tables) */
	struct vma vmas[MM_VMAS_MAX];   /* sorted by start, never overlapping */
	unsigned nvmas;
	/*
	 * Files of regions removed under page_table_lock, to be fput() by
	 * vma_put_files() once it is let go (a last fput may sleep). Under
	 * mmap_sem for writing, as the regions; each call that changes the
	 * regions adds at most MM_VMAS_MAX.
	 */
	struct file *fput_later[2 * MM_VMAS_MAX];
	unsigned nfput_later;
	/*
	 * The CPUs that have pgdir loaded now, running a task of this mm or
	 * lazily (kernel/mm/tlb.c): where a TLB shootdown must go. Bit n is
	 * CPU n; each CPU sets and clears its own bit, atomically.
	 */
	uint32_t cpu_mask;
	/*
	 * Tasks using this address space: the threads of a process (CLONE_VM),
	 * or a vfork child borrowing its parent's. Atomic; the last mm_put()
	 * frees it.
	 */
	int users;
};

/* A new, empty address space with the kernel half shared. NULL when out of memory. */
struct mm *mm_create(void);
/* Return every frame of mm (pages, page tables, the directory) and free it. */
void mm_destroy(struct mm *mm);
/* One more user of mm (a vfork child); returns mm. */
struct mm *mm_get(struct mm *mm);
/* One user fewer: the last one destroys mm. NULL is fine. */
void mm_put(struct mm *mm);
#define PGFLT_WRITE 0x2         /* in a page fault's error code: the access was a write */
#define PTE_COW 0x200           /* a PTE bit the CPU ignores: read-only now, copy on the first write */
/* Another bit the CPU ignores: a MAP_SHARED page. fork() shares it writable, never copy-on-write. */
#define PTE_SHARED 0x400

/* A copy of parent's user half (fork), sharing frames copy-on-write. NULL when out of memory. */
struct mm *mm_fork(struct mm *parent);
/* A write to va faulted: if it is a COW page, give mm its own writable copy and return true. */
bool mm_break_cow(struct mm *mm, uintptr_t va);

enum mm_fault_result {
	MM_FAULT_DONE,          /* resolved: retry the access */
	MM_FAULT_BAD,           /* not a valid access: SIGSEGV, or -EFAULT for the kernel */
	MM_FAULT_OOM,           /* valid, but no free frame to resolve it (kernel/mm/fault.c decides) */
	MM_FAULT_SIGBUS,        /* a file mapping's page wholly past the end of the file: SIGBUS */
	MM_FAULT_READ,          /* a file's page must be read first: mm_fault_read() with no lock, then retry */
};
/*
 * Resolve a fault at va in mm: a write to a COW page gets its own copy, a heap
 * page not yet populated gets a zeroed frame. May allocate one page; never sleeps.
 * The caller holds mmap_sem for reading (kernel/mm/fault.c), or in atomic
 * context nothing: page_table_lock, taken here, is enough to read the regions.
 */
enum mm_fault_result mm_fault(struct mm *mm, uintptr_t va, bool write);
/*
 * After MM_FAULT_READ: read the file's page for va into a private frame and
 * map it. Sleeps; the caller holds no lock, not even mmap_sem (the read takes
 * the file's i_mutex: docs/mm.md section 9). Then the access (or mm_fault) retries.
 */
enum mm_fault_result mm_fault_read(struct mm *mm, uintptr_t va, bool write);

/* Map fresh zeroed pages over [start, end) (page-aligned) with PTE_P|PTE_U|flags. */
int mm_alloc_range(struct mm *mm, uintptr_t start, uintptr_t end, uint32_t flags);
/*
 * Unmap [start, end) and free the frames, after one TLB shootdown for the
 * whole range (kernel/mm/unmap.c). Needs mmap_sem for writing.
 */
void mm_unmap_range(struct mm *mm, uintptr_t start, uintptr_t end);
/* Map one existing frame at va (the caller gives up its reference). -EINVAL, -ENOMEM. */
int mm_map_page(struct mm *mm, uintptr_t va, physaddr_t pa, uint32_t flags);
/* Let user mode write the (mapped) page at va. */
void mm_make_writable(struct mm *mm, uintptr_t va);
/* The PTE of va, or 0 when va is not mapped. */
pte_t mm_lookup(struct mm *mm, uintptr_t va);
/* Copy into mm's memory through the direct map (mm need not be loaded); -EFAULT if unmapped. Breaks COW. */
int mm_copy_in(struct mm *mm, uintptr_t va, const void *src, size_t n);

/*
 * brk(): move the break (0 asks for it); returns the break in effect afterwards,
 * as Linux does (the old one on failure). Maps nothing: heap pages come on
 * demand. A heap bigger than the RAM there is, is refused at once.
 */
uintptr_t mm_brk(struct mm *mm, uintptr_t newbrk);

/* Set the PTEs of [start, end) to match prot, one page table per lock hold, then shoot down. Needs mmap_sem for writing. */
void mm_protect_range(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot);
/* Move the pages of [from, from + len) to [to, to + len), which must be empty. -ENOMEM (nothing moved). */
int mm_move_range(struct mm *mm, uintptr_t from, uintptr_t to, size_t len);
/*
 * Make [start, end) a private mapping of file f from page pgoff under prot:
 * its pages come on demand (kernel/mm/filemap.c). Replaces what was there
 * (the pages too). f NULL: anonymous. Takes mmap_sem for writing. -ENOMEM.
 */
int mm_map_file(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot, struct file *f,
		uint32_t pgoff);
/* Change the rights of the regions and pages of [start, end), keeping what backs them. Takes mmap_sem. */
int mm_protect(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot);
/* Map a fresh zeroed frame at va as a MAP_SHARED page (PTE_SHARED) under prot. -ENOMEM. */
int mm_map_shared_page(struct mm *mm, uintptr_t va, unsigned prot);

/*
 * Make mm the address space of this CPU (kernel_pgdir for NULL: exit, not lazily)
 * and point the TSS at kstack_top, the kernel stack an interrupt from user mode
 * lands on. For exec and exit, which change the running task's mm.
 */
void mm_activate(struct mm *mm, void *kstack_top);
struct task;
/*
 * Load next's page directory, unless it is loaded already; a kernel thread
 * keeps whatever is loaded (lazy TLB, kernel/mm/tlb.c). schedule() calls it
 * on every switch.
 */
void mm_switch_to(struct task *next);

#endif
