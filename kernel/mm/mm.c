/*
 * User address spaces. Each process has its own page directory: entries
 * 768..1023 are copies of kernel_pgdir (the kernel half is frozen once the
 * first address space exists, so the copies never go stale); entries 0..767
 * point at page tables of 4 KiB pages that belong to this process alone.
 *
 * fork() copies nothing at first: parent and child share every frame, and
 * writable pages become read-only in both, marked PTE_COW. The first write
 * from either side faults; mm_break_cow() then gives the writer its own copy
 * (or, if it is the last one sharing the frame, simply makes it writable).
 * A per-frame count of mappings says when a frame is free again.
 *
 * The heap is not populated by brk(): brk only moves the break. A page of
 * [brk_start, brk) gets its frame at the first access, from mm_fault() (the
 * page-fault path, kernel/mm/fault.c). So no operation here allocates or
 * zeroes more than one page with mm->lock held: docs/mm.md says why.
 */
#include "kernel/mm/mm.h"

#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define USER_PDES PDX(USER_TOP)         /* 768: directory entries 0..767 are user space */

/* Protects the one-time setup in mm_create(): the refcount table and the freeze. */
static spinlock_t mm_setup_lock = SPINLOCK_INIT("mm_setup");
/*
 * How many user PTEs map each frame of the direct map, by frame number.
 * Changed only with atomic operations: two address spaces sharing a frame
 * hold different mm->locks.
 */
static uint16_t *frame_refs;

static void frame_set_one(physaddr_t pa)
{
	__atomic_store_n(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST);
}

static void frame_get(physaddr_t pa)
{
	__atomic_add_fetch(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST);
}

/* Drop one mapping of pa; the last one frees the frame. */
static void frame_put(physaddr_t pa)
{
	if (__atomic_sub_fetch(&frame_refs[pa >> PAGE_SHIFT], 1, __ATOMIC_SEQ_CST) == 0)
		pmm_free_page(pa);
}

static unsigned frame_count(physaddr_t pa)
{
	return __atomic_load_n(&frame_refs[pa >> PAGE_SHIFT], __ATOMIC_SEQ_CST);
}

/* Before the first address space: the refcount table, and no more changes to the kernel half. */
static bool mm_setup(void)
{
	bool ok;

	spin_lock(&mm_setup_lock);
	if (!frame_refs) {
		frame_refs = kzalloc((direct_map_end / PAGE_SIZE) * sizeof(frame_refs[0]));
		if (frame_refs)
			vm_freeze_kernel_half();
	}
	ok = frame_refs != NULL;
	spin_unlock(&mm_setup_lock);
	return ok;
}

static physaddr_t zeroed_frame(void)
{
	physaddr_t pa = pmm_alloc_page();

	if (pa)
		memset(P2V(pa), 0, PAGE_SIZE);
	return pa;
}

struct mm *mm_create(void)
{
	struct mm *mm;
	physaddr_t pd;

	if (!mm_setup())
		return NULL;
	mm = kzalloc(sizeof(*mm));
	if (!mm)
		return NULL;
	pd = zeroed_frame();
	if (!pd) {
		kfree(mm);
		return NULL;
	}
	mm->pgdir = P2V(pd);
	memcpy(&mm->pgdir[USER_PDES], &kernel_pgdir[USER_PDES], (1024 - USER_PDES) * sizeof(pde_t));
	spin_lock_init(&mm->lock, "mm");
	return mm;
}

/* The PTE slot for va, allocating its page table if create; NULL if absent or out of memory. */
static pte_t *pte_slot(struct mm *mm, uintptr_t va, bool create)
{
	pde_t *pde = &mm->pgdir[PDX(va)];
	physaddr_t pt;

	if (!(*pde & PTE_P)) {
		if (!create)
			return NULL;
		pt = zeroed_frame();
		if (!pt)
			return NULL;
		/* Permissive directory entry: the PTE decides what user mode may do. */
		*pde = pt | PTE_P | PTE_W | PTE_U;
	}
	return (pte_t *)P2V(PTE_ADDR(*pde)) + PTX(va);
}

/* Invalidate va on this CPU if mm is the loaded address space (others reload CR3 on switch). */
static void flush_if_loaded(struct mm *mm, uintptr_t va)
{
	if (read_cr3() == V2P(mm->pgdir))
		invlpg(va);
}

static int map_locked(struct mm *mm, uintptr_t va, physaddr_t pa, uint32_t flags)
{
	pte_t *pte;

	if (va >= USER_TOP || va % PAGE_SIZE || pa % PAGE_SIZE)
		return -EINVAL;
	pte = pte_slot(mm, va, true);
	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_P)
		return -EEXIST;
	*pte = pa | PTE_P | PTE_U | (flags & PTE_W);
	mm->npages++;
	return 0;
}

int mm_map_page(struct mm *mm, uintptr_t va, physaddr_t pa, uint32_t flags)
{
	int r;

	spin_lock(&mm->lock);
	r = map_locked(mm, va, pa, flags);
	if (r == 0)
		frame_set_one(pa);
	spin_unlock(&mm->lock);
	return r;
}

/* Unmap the pages of [start, end) and drop their frames. Needs mm->lock. */
static void unmap_locked(struct mm *mm, uintptr_t start, uintptr_t end)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = pte_slot(mm, va, false);

		if (!pte) {
			/* No page table here: skip to the next 4 MiB (careful not to wrap). */
			uintptr_t next = ALIGN_DOWN(va, BIG_PAGE_SIZE) + BIG_PAGE_SIZE;

			if (next <= va)
				break;
			va = next - PAGE_SIZE;
			continue;
		}
		if (!(*pte & PTE_P))
			continue;
		frame_put(PTE_ADDR(*pte));
		*pte = 0;
		mm->npages--;
		flush_if_loaded(mm, va);
	}
}

/*
 * Unmap [start, end) one page table (4 MiB) at a time, taking mm->lock for
 * each: a big range never keeps preemption off for more than 1024 pages.
 */
static void unmap_range(struct mm *mm, uintptr_t start, uintptr_t end)
{
	while (start < end) {
		uintptr_t table_end = ALIGN_DOWN(start, BIG_PAGE_SIZE) + BIG_PAGE_SIZE;
		uintptr_t stop = table_end > start && table_end < end ? table_end : end;

		spin_lock(&mm->lock);
		unmap_locked(mm, start, stop);
		spin_unlock(&mm->lock);
		start = stop;
	}
}

void mm_unmap_range(struct mm *mm, uintptr_t start, uintptr_t end)
{
	if (end > USER_TOP)
		end = USER_TOP;
	unmap_range(mm, start, end);
}

static int alloc_locked(struct mm *mm, uintptr_t start, uintptr_t end, uint32_t flags)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		physaddr_t pa = zeroed_frame();
		int r;

		if (!pa) {
			unmap_locked(mm, start, va);
			return -ENOMEM;
		}
		r = map_locked(mm, va, pa, flags);
		if (r < 0) {
			pmm_free_page(pa);
			unmap_locked(mm, start, va);
			return r;
		}
		frame_set_one(pa);
	}
	return 0;
}

int mm_alloc_range(struct mm *mm, uintptr_t start, uintptr_t end, uint32_t flags)
{
	int r;

	if (start % PAGE_SIZE || end % PAGE_SIZE || start > end || end > USER_TOP)
		return -EINVAL;
	spin_lock(&mm->lock);
	r = alloc_locked(mm, start, end, flags);
	spin_unlock(&mm->lock);
	return r;
}

pte_t mm_lookup(struct mm *mm, uintptr_t va)
{
	pte_t *pte, e = 0;

	if (va >= USER_TOP)
		return 0;
	spin_lock(&mm->lock);
	pte = pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P))
		e = *pte;
	spin_unlock(&mm->lock);
	return e;
}

void mm_make_writable(struct mm *mm, uintptr_t va)
{
	pte_t *pte;

	if (va >= USER_TOP)
		return;
	spin_lock(&mm->lock);
	pte = pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P)) {
		*pte |= PTE_W;
		flush_if_loaded(mm, va);
	}
	spin_unlock(&mm->lock);
}

int mm_copy_in(struct mm *mm, uintptr_t va, const void *src, size_t n)
{
	const char *s = src;

	while (n > 0) {
		pte_t e = mm_lookup(mm, va);
		size_t off = va % PAGE_SIZE, chunk = MIN(n, PAGE_SIZE - off);

		if (!e || (e & PTE_COW)) {
			/*
			 * A heap page not yet populated, or one shared since fork (writing
			 * through the direct map must not change the other sharers' page).
			 */
			enum mm_fault_result f = mm_fault(mm, va, true);

			if (f != MM_FAULT_DONE)
				return f == MM_FAULT_OOM ? -ENOMEM : -EFAULT;
			e = mm_lookup(mm, va);
		}
		memcpy((char *)P2V(PTE_ADDR(e)) + off, s, chunk);
		va += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

void mm_destroy(struct mm *mm)
{
	if (!mm)
		return;
	/* Never free the directory this CPU is using: fall back to the kernel's. */
	if (read_cr3() == V2P(mm->pgdir))
		write_cr3(V2P(kernel_pgdir));
	for (unsigned i = 0; i < USER_PDES; i++) {
		pde_t pde = mm->pgdir[i];
		pte_t *pt;

		if (!(pde & PTE_P))
			continue;
		pt = P2V(PTE_ADDR(pde));
		for (int j = 0; j < 1024; j++)
			if (pt[j] & PTE_P)
				frame_put(PTE_ADDR(pt[j]));
		pmm_free_page(PTE_ADDR(pde));
	}
	pmm_free_page(V2P(mm->pgdir));
	kfree(mm);
}

/* Share one page table's worth of pages with child; writable ones become copy-on-write in both. */
static int fork_table(struct mm *child, pte_t *pt, uintptr_t base)
{
	for (int j = 0; j < 1024; j++) {
		pte_t *slot;

		if (!(pt[j] & PTE_P))
			continue;
		slot = pte_slot(child, base + (uintptr_t)j * PAGE_SIZE, true);
		if (!slot)
			return -ENOMEM;
		if (pt[j] & PTE_W)
			pt[j] = (pt[j] & ~PTE_W) | PTE_COW;
		*slot = pt[j];
		frame_get(PTE_ADDR(pt[j]));
		child->npages++;
	}
	return 0;
}

struct mm *mm_fork(struct mm *parent)
{
	struct mm *child = mm_create();
	int r = 0;

	if (!child)
		return NULL;
	spin_lock(&parent->lock);
	spin_lock(&child->lock);
	for (unsigned i = 0; i < USER_PDES && r == 0; i++)
		if (parent->pgdir[i] & PTE_P)
			r = fork_table(child, P2V(PTE_ADDR(parent->pgdir[i])), (uintptr_t)i << 22);
	child->brk_start = parent->brk_start;
	child->brk = parent->brk;
	/* The parent's writable pages just became read-only: drop what the TLB remembers. */
	if (read_cr3() == V2P(parent->pgdir))
		write_cr3(V2P(parent->pgdir));
	spin_unlock(&child->lock);
	spin_unlock(&parent->lock);
	if (r < 0) {
		mm_destroy(child);      /* the parent keeps COW marks: its next writes just copy */
		return NULL;
	}
	return child;
}

/* A write to the COW page *pte (va): give mm its own copy, or take the frame if no one else maps it. */
static enum mm_fault_result break_cow_locked(struct mm *mm, pte_t *pte, uintptr_t va)
{
	physaddr_t old = PTE_ADDR(*pte), new;

	assert_spin_held(&mm->lock);
	if (frame_count(old) == 1) {
		/* Everyone else has copied or gone: the frame is ours alone. */
		*pte = (*pte | PTE_W) & ~PTE_COW;
	} else {
		new = pmm_alloc_page();
		if (!new)
			return MM_FAULT_OOM;
		memcpy(P2V(new), P2V(old), PAGE_SIZE);
		frame_set_one(new);
		*pte = new | PTE_P | PTE_U | PTE_W;
		frame_put(old);
	}
	flush_if_loaded(mm, va);
	return MM_FAULT_DONE;
}

bool mm_break_cow(struct mm *mm, uintptr_t va)
{
	pte_t *pte;
	bool done = false;

	if (va >= USER_TOP)
		return false;
	spin_lock(&mm->lock);
	pte = pte_slot(mm, va, false);
	if (pte && (*pte & (PTE_P | PTE_COW)) == (PTE_P | PTE_COW))
		done = break_cow_locked(mm, pte, va) == MM_FAULT_DONE;
	spin_unlock(&mm->lock);
	return done;
}

/* Is va in the heap, [brk_start, brk) rounded up to whole pages? Needs mm->lock. */
static bool in_heap(struct mm *mm, uintptr_t va)
{
	return va >= mm->brk_start && va < ALIGN_UP(mm->brk, PAGE_SIZE);
}

/* Give the heap page at va a zeroed frame, zeroed before taking mm->lock. */
static enum mm_fault_result demand_page(struct mm *mm, uintptr_t va)
{
	physaddr_t pa = zeroed_frame();
	enum mm_fault_result r = MM_FAULT_DONE;
	pte_t *pte;

	if (!pa)
		return MM_FAULT_OOM;
	spin_lock(&mm->lock);
	pte = pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P)) {
		pmm_free_page(pa);      /* someone else populated it meanwhile: the access can retry */
	} else if (!in_heap(mm, va)) {
		pmm_free_page(pa);      /* brk shrank meanwhile: now it is a bad access */
		r = MM_FAULT_BAD;
	} else {
		int e = map_locked(mm, va, pa, PTE_W);

		if (e == 0) {
			frame_set_one(pa);
		} else {
			pmm_free_page(pa);      /* no page table: out of memory as well */
			r = MM_FAULT_OOM;
		}
	}
	spin_unlock(&mm->lock);
	return r;
}

enum mm_fault_result mm_fault(struct mm *mm, uintptr_t va, bool write)
{
	enum mm_fault_result r = MM_FAULT_BAD;
	bool want_page = false;
	pte_t *pte;

	if (va >= USER_TOP)
		return MM_FAULT_BAD;
	va = ALIGN_DOWN(va, PAGE_SIZE);
	spin_lock(&mm->lock);
	pte = pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P)) {
		if (write && (*pte & PTE_COW))
			r = break_cow_locked(mm, pte, va);
		else if (!write || (*pte & PTE_W))
			r = MM_FAULT_DONE;      /* already resolved (by another CPU, or a stale TLB entry) */
	} else {
		want_page = in_heap(mm, va);
	}
	spin_unlock(&mm->lock);
	return want_page ? demand_page(mm, va) : r;
}

uintptr_t mm_brk(struct mm *mm, uintptr_t newbrk)
{
	uintptr_t old_end = 0, new_end = 0, result;

	spin_lock(&mm->lock);
	/*
	 * A heap bigger than all the RAM there is can never be backed: refuse it
	 * now (Linux's heuristic overcommit) rather than let the faults find out.
	 */
	if (newbrk >= mm->brk_start && newbrk <= USER_BRK_MAX &&
	    (newbrk - mm->brk_start) / PAGE_SIZE <= pmm_usable_count()) {
		old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
		new_end = ALIGN_UP(newbrk, PAGE_SIZE);
		mm->brk = newbrk;       /* growing maps nothing: pages come at the first access */
	}
	result = mm->brk;
	spin_unlock(&mm->lock);
	/* Shrinking: the range is out of the heap already, so no fault brings a page back. */
	if (new_end < old_end)
		unmap_range(mm, new_end, old_end);
	return result;
}

void mm_activate(struct mm *mm, void *kstack_top)
{
	physaddr_t pd = mm ? V2P(mm->pgdir) : V2P(kernel_pgdir);
	/* Interrupts off: a preemption here could move us and set another CPU's esp0. */
	uint32_t flags = irq_save();

	this_cpu()->tss.esp0 = (uint32_t)kstack_top;
	/* Always reload: user PTEs are not global, so this also drops stale entries of other mms. */
	if (mm || read_cr3() != pd)
		write_cr3(pd);
	irq_restore(flags);
}

/* Called by schedule() for the task it switches to, after it has set tss.esp0. */
void mm_switch_to(struct task *next)
{
	physaddr_t pd = next->mm ? V2P(next->mm->pgdir) : V2P(kernel_pgdir);

	/* Always reload for a process: its user PTEs are not global, so stale ones of other mms go. */
	if (next->mm || read_cr3() != pd)
		write_cr3(pd);
}
