/*
 * User address spaces. Each process has its own page directory: entries
 * 768..1023 are copies of kernel_pgdir (the kernel half is frozen once the
 * first address space exists, so the copies never go stale); entries 0..767
 * point at page tables of 4 KiB pages that belong to this process alone.
 *
 * fork() shares the frames copy-on-write: kernel/mm/cow.c. A per-frame count
 * of mappings (kernel/mm/frame_refs.h) says when a frame is free again.
 *
 * The heap is not populated by brk(): brk only moves the break. A page of
 * [brk_start, brk) gets its frame at the first access, from mm_fault() (the
 * page-fault path, kernel/mm/fault.c). So no operation here allocates or
 * zeroes more than one page with page_table_lock held: docs/mm.md says why.
 *
 * Locking (docs/mm.md section 8): mmap_sem for writing around every change
 * of the regions or the break, for reading around a fault; page_table_lock
 * (ptl_lock(), kernel/mm/mm_internal.h) around each page table's worth of
 * PTE work. A PTE made stricter or cleared is shot down from every CPU's TLB
 * (kernel/mm/tlb.c) before the call returns, and before its frame is freed.
 */
#include "kernel/mm/mm.h"

#include "kernel/cpu.h"
#include "kernel/lib/string.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/frame_refs.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/tlb.h"
#include "kernel/mm/vma.h"
#include "kernel/panic.h"
#include "fs/file.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/mman.h"
#include "kernel/x86/x86.h"

#define USER_PDES PDX(USER_TOP)         /* 768: directory entries 0..767 are user space */

/* Protects the one-time setup in mm_create(): the refcount table and the freeze. */
static spinlock_t mm_setup_lock = SPINLOCK_INIT("mm_setup");
uint16_t *frame_refs;

/*
 * The refcount table: before the first address space, or before the first
 * page a file system keeps for mappings (kernel/mm/filemap.c), whichever
 * comes first (ramfs fills the initrd's files before init has an mm).
 */
bool mm_frame_refs_init(void)
{
	bool ok;

	if (__atomic_load_n(&frame_refs, __ATOMIC_ACQUIRE))
		return true;
	spin_lock(&mm_setup_lock);
	if (!frame_refs)
		__atomic_store_n(&frame_refs, kzalloc((direct_map_end / PAGE_SIZE) * sizeof(frame_refs[0])),
				 __ATOMIC_RELEASE);
	ok = frame_refs != NULL;
	spin_unlock(&mm_setup_lock);
	return ok;
}

/* Before the first address space: the refcount table, and no more changes to the kernel half. */
static bool mm_setup(void)
{
	static bool frozen;

	if (!mm_frame_refs_init())
		return false;
	spin_lock(&mm_setup_lock);
	if (!frozen)
		vm_freeze_kernel_half();
	frozen = true;
	spin_unlock(&mm_setup_lock);
	return true;
}

physaddr_t mm_zeroed_frame(void)
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
	pd = mm_zeroed_frame();
	if (!pd) {
		kfree(mm);
		return NULL;
	}
	mm->pgdir = P2V(pd);
	memcpy(&mm->pgdir[USER_PDES], &kernel_pgdir[USER_PDES], (1024 - USER_PDES) * sizeof(pde_t));
	init_rwsem(&mm->mmap_sem, "mmap_sem");
	spin_lock_init(&mm->page_table_lock, "page_table_lock");
	mm->users = 1;
	return mm;
}

pte_t *mm_pte_slot(struct mm *mm, uintptr_t va, bool create)
{
	pde_t *pde = &mm->pgdir[PDX(va)];
	physaddr_t pt;

	if (!(*pde & PTE_P)) {
		if (!create)
			return NULL;
		pt = mm_zeroed_frame();
		if (!pt)
			return NULL;
		/* Permissive directory entry: the PTE decides what user mode may do. */
		*pde = pt | PTE_P | PTE_W | PTE_U;
	}
	return (pte_t *)P2V(PTE_ADDR(*pde)) + PTX(va);
}

void ptl_lock_polling(struct mm *mm)
{
	while (!spin_trylock(&mm->page_table_lock)) {
		tlb_poll();     /* the holder may be shooting down: answer it, or it waits for ever */
		cpu_relax();
	}
}

static int map_locked(struct mm *mm, uintptr_t va, physaddr_t pa, uint32_t flags)
{
	pte_t *pte;

	if (va >= USER_TOP || va % PAGE_SIZE || pa % PAGE_SIZE)
		return -EINVAL;
	pte = mm_pte_slot(mm, va, true);
	if (!pte)
		return -ENOMEM;
	if (*pte)
		return -EEXIST;         /* present, or cleared by an unmap still under way (PTE_ZAP) */
	*pte = pa | PTE_P | PTE_U | (flags & PTE_W);
	mm->npages++;
	return 0;
}

int mm_map_page(struct mm *mm, uintptr_t va, physaddr_t pa, uint32_t flags)
{
	int r;

	ptl_lock(mm);
	r = map_locked(mm, va, pa, flags);
	if (r == 0)
		frame_set_one(pa);
	ptl_unlock(mm);
	return r;
}

/* Map fresh pages over [start, end); *done: where it stopped (end, or the page that failed). */
static int alloc_locked(struct mm *mm, uintptr_t start, uintptr_t end, uint32_t flags, uintptr_t *done)
{
	for (*done = start; *done < end; *done += PAGE_SIZE) {
		physaddr_t pa = mm_zeroed_frame();
		int r;

		if (!pa)
			return -ENOMEM;
		r = map_locked(mm, *done, pa, flags);
		if (r < 0) {
			pmm_free_page(pa);
			return r;
		}
		frame_set_one(pa);
	}
	return 0;
}

/* The region rights of a segment or stack mapped by exec: text may run, data may be written. */
static unsigned prot_of_flags(uint32_t flags)
{
	return (flags & PTE_W) ? PROT_READ | PROT_WRITE : PROT_READ | PROT_EXEC;
}

int mm_alloc_range(struct mm *mm, uintptr_t start, uintptr_t end, uint32_t flags)
{
	uintptr_t done;
	int r;

	if (start % PAGE_SIZE || end % PAGE_SIZE || start > end || end > USER_TOP)
		return -EINVAL;
	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	r = alloc_locked(mm, start, end, flags, &done);
	if (r == 0 && start < end)
		r = vma_set(mm, start, end, prot_of_flags(flags));
	ptl_unlock(mm);
	if (r < 0)
		mm_unmap_range(mm, start, done);        /* what this call mapped before the failure */
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	return r;
}

pte_t mm_lookup(struct mm *mm, uintptr_t va)
{
	pte_t *pte, e = 0;

	if (va >= USER_TOP)
		return 0;
	ptl_lock(mm);
	pte = mm_pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P))
		e = *pte;
	ptl_unlock(mm);
	return e;
}

void mm_make_writable(struct mm *mm, uintptr_t va)
{
	pte_t *pte;

	if (va >= USER_TOP)
		return;
	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	pte = mm_pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P)) {
		*pte |= PTE_W;          /* more rights: a stale read-only entry only faults once more */
		/* A page shared by text and data (elf.c): the region says it may be written too. */
		vma_set(mm, ALIGN_DOWN(va, PAGE_SIZE), ALIGN_DOWN(va, PAGE_SIZE) + PAGE_SIZE,
			PROT_READ | PROT_WRITE | PROT_EXEC);
	}
	ptl_unlock(mm);
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
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
			enum mm_fault_result f;

			down_read(&mm->mmap_sem);
			f = mm_fault(mm, va, true);
			up_read(&mm->mmap_sem);
			if (f == MM_FAULT_READ) {
				/* A file's page to read, with mmap_sem let go (filemap.c); then look again. */
				f = mm_fault_read(mm, va, true);
				if (f == MM_FAULT_DONE)
					continue;
			}
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

struct mm *mm_get(struct mm *mm)
{
	__atomic_add_fetch(&mm->users, 1, __ATOMIC_RELAXED);
	return mm;
}

void mm_put(struct mm *mm)
{
	if (mm && __atomic_sub_fetch(&mm->users, 1, __ATOMIC_ACQ_REL) == 0)
		mm_destroy(mm);
}

void mm_destroy(struct mm *mm)
{
	struct frame_batch batch = { .n = 0 };

	if (!mm)
		return;
	/*
	 * No task uses mm any more, but CPUs in lazy TLB mode may still have its
	 * directory loaded (kernel/mm/tlb.c): they load the kernel's first.
	 */
	tlb_leave_mm_everywhere(mm);
	for (unsigned i = 0; i < USER_PDES; i++) {
		pde_t pde = mm->pgdir[i];
		pte_t *pt;

		if (!(pde & PTE_P))
			continue;
		pt = P2V(PTE_ADDR(pde));
		for (int j = 0; j < 1024; j++)
			if (pt[j] & PTE_P)
				frame_put_batched(PTE_ADDR(pt[j]), &batch);
		pmm_free_batch_add(&batch, PTE_ADDR(pde));
	}
	pmm_free_batch_add(&batch, V2P(mm->pgdir));
	pmm_free_batch_flush(&batch);
	vma_drop_all(mm);       /* the files of its file mappings */
	kfree(mm);
}

/* Is va in the heap, [brk_start, brk) rounded up to whole pages? Needs mmap_sem or page_table_lock. */
static bool in_heap(struct mm *mm, uintptr_t va)
{
	return va >= mm->brk_start && va < ALIGN_UP(mm->brk, PAGE_SIZE);
}

/*
 * May user mode make this access at va? Inside the heap anything goes; inside
 * a region its prot decides (x86 without PAE cannot refuse execution, so
 * PROT_EXEC is only stored); elsewhere nothing. *writable: may it write.
 * Needs page_table_lock (enough to read the regions: they change under both locks).
 */
static bool access_allowed(struct mm *mm, uintptr_t va, bool write, bool *writable)
{
	struct vma *v;

	if (in_heap(mm, va)) {
		*writable = true;
		return true;
	}
	v = vma_find(mm, va);
	if (!v || v->prot == PROT_NONE)
		return false;
	*writable = v->prot & PROT_WRITE;
	return !write || *writable;
}

/* Give the heap or region page at va a zeroed frame, zeroed before taking page_table_lock. */
static enum mm_fault_result demand_page(struct mm *mm, uintptr_t va, bool write)
{
	bool writable = false;
	physaddr_t pa = mm_zeroed_frame();
	enum mm_fault_result r = MM_FAULT_DONE;
	pte_t *pte;

	if (!pa)
		return MM_FAULT_OOM;
	ptl_lock(mm);
	pte = mm_pte_slot(mm, va, false);
	if (pte && (*pte & PTE_P)) {
		pmm_free_page(pa);      /* someone else populated it meanwhile: the access can retry */
	} else if (pte && (*pte & PTE_ZAP)) {
		pmm_free_page(pa);      /* madvise is dropping it (a fault without mmap_sem): a bad access now */
		r = MM_FAULT_BAD;
	} else if (!access_allowed(mm, va, write, &writable)) {
		pmm_free_page(pa);      /* brk shrank or munmap ran meanwhile: now it is a bad access */
		r = MM_FAULT_BAD;
	} else {
		int e = map_locked(mm, va, pa, writable ? PTE_W : 0);

		if (e == 0) {
			frame_set_one(pa);
		} else {
			pmm_free_page(pa);      /* no page table: out of memory as well */
			r = MM_FAULT_OOM;
		}
	}
	ptl_unlock(mm);
	return r;
}

/* The region at va if a file backs it (and va is not heap), or NULL. Needs page_table_lock. */
static struct vma *file_region(struct mm *mm, uintptr_t va)
{
	struct vma *v = in_heap(mm, va) ? NULL : vma_find(mm, va);

	return v && v->file ? v : NULL;
}

enum mm_fault_result mm_fault(struct mm *mm, uintptr_t va, bool write)
{
	enum mm_fault_result r = MM_FAULT_BAD;
	bool want_page = false, writable;
	struct file *file = NULL;
	uint32_t pgoff = 0;
	struct vma *v;
	pte_t *pte;

	if (va >= USER_TOP)
		return MM_FAULT_BAD;
	va = ALIGN_DOWN(va, PAGE_SIZE);
	ptl_lock(mm);
	pte = mm_pte_slot(mm, va, false);
	if (!access_allowed(mm, va, write, &writable)) {
		r = MM_FAULT_BAD;       /* outside every region, PROT_NONE, or a write where prot forbids it */
	} else if (pte && (*pte & PTE_P)) {
		if (write && (*pte & PTE_COW))
			r = mm_break_cow_locked(mm, pte, va);
		else if (!write || (*pte & PTE_W))
			r = MM_FAULT_DONE;      /* already resolved (by another CPU, or a stale TLB entry) */
	} else if ((v = file_region(mm, va))) {
		/* Our own reference: without mmap_sem (atomic context) the region may go meanwhile. */
		file = v->file;
		fget_ref(file);
		pgoff = vma_pgoff_at(v, va);
	} else {
		want_page = true;
	}
	ptl_unlock(mm);
	if (file) {
		r = filemap_fault(mm, va, write, file, pgoff);
		fput(file);
		return r;
	}
	return want_page ? demand_page(mm, va, write) : r;
}

uintptr_t mm_brk(struct mm *mm, uintptr_t newbrk)
{
	uintptr_t old_end = 0, new_end = 0, result;

	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	/*
	 * A heap bigger than all the RAM there is can never be backed: refuse it
	 * now (Linux's heuristic overcommit) rather than let the faults find out.
	 */
	if (newbrk >= mm->brk_start && newbrk <= USER_BRK_MAX &&
	    (newbrk - mm->brk_start) / PAGE_SIZE <= pmm_usable_count() &&
	    !vma_meets(mm, ALIGN_UP(mm->brk, PAGE_SIZE), ALIGN_UP(newbrk, PAGE_SIZE))) {
		old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
		new_end = ALIGN_UP(newbrk, PAGE_SIZE);
		mm->brk = newbrk;       /* growing maps nothing: pages come at the first access */
	}
	result = mm->brk;
	ptl_unlock(mm);
	/* Shrinking: the range is out of the heap already, so no fault brings a page back. */
	if (new_end < old_end)
		mm_unmap_range(mm, new_end, old_end);
	up_write(&mm->mmap_sem);
	return result;
}

/*
 * The PTE bits for a page of frame pa under prot. PROT_NONE keeps the frame
 * but hides it from user mode. A MAP_SHARED page (shared) stays one: it is
 * writable however many map it, since sharing the writes is its point.
 */
static pte_t pte_for_prot(physaddr_t pa, unsigned prot, bool shared)
{
	pte_t e = pa | PTE_P | (shared ? PTE_SHARED : 0);

	if (prot == PROT_NONE)
		return e;
	e |= PTE_U;
	if (prot & PROT_WRITE)
		e |= frame_count(pa) > 1 && !shared ? PTE_COW : PTE_W;    /* still shared since fork: copy first */
	return e;
}

/* Apply prot to the present pages of [start, end), inside one page table. Needs page_table_lock. */
static void protect_locked(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot, bool *changed)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = mm_pte_slot(mm, va, false);

		if (!pte)
			return;         /* no page table: nothing present in this 4 MiB */
		if (!(*pte & PTE_P))
			continue;
		*pte = pte_for_prot(PTE_ADDR(*pte), prot, *pte & PTE_SHARED);
		*changed = true;
	}
}

void mm_protect_range(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot)
{
	uintptr_t from = start;
	bool changed = false;

	while (start < end) {
		uintptr_t stop = table_stop(start, end);

		ptl_lock(mm);
		protect_locked(mm, start, stop, prot, &changed);
		ptl_unlock(mm);
		start = stop;
	}
	/* Fewer rights (PROT_NONE, read-only, COW): no CPU may keep using the old ones after we return. */
	if (changed)
		flush_tlb_range(mm, from, end);
}

int mm_move_range(struct mm *mm, uintptr_t from, uintptr_t to, size_t len)
{
	uintptr_t off, stop;

	/* First every page table the destination needs (one allocation per hold), so the move cannot fail. */
	for (off = 0; off < len; off = stop) {
		bool ok;

		stop = table_stop(to + off, to + len) - to;
		ptl_lock(mm);
		ok = mm_pte_slot(mm, to + off, true) != NULL;
		ptl_unlock(mm);
		if (!ok)
			return -ENOMEM;
	}
	for (off = 0; off < len; off = stop) {
		stop = table_stop(from + off, from + len) - from;
		ptl_lock(mm);
		for (uintptr_t o = off; o < stop; o += PAGE_SIZE) {
			pte_t *src = mm_pte_slot(mm, from + o, false);

			if (!src || !(*src & PTE_P))
				continue;
			*mm_pte_slot(mm, to + o, false) = *src;
			*src = 0;
		}
		ptl_unlock(mm);
	}
	/* The frames live on at the new address; no CPU may reach them through the old one. */
	flush_tlb_range(mm, from, from + len);
	return 0;
}

int mm_map_file(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot, struct file *f,
		uint32_t pgoff)
{
	int r;

	if (start % PAGE_SIZE || end % PAGE_SIZE || start >= end || end > USER_TOP)
		return -EINVAL;
	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	r = vma_set_file(mm, start, end, prot, f, pgoff);
	ptl_unlock(mm);
	if (r == 0)
		mm_unmap_range(mm, start, end);         /* what was there goes: the pages come from f now */
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	return r;
}

int mm_protect(struct mm *mm, uintptr_t start, uintptr_t end, unsigned prot)
{
	int r;

	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	r = vma_protect(mm, start, end, prot);
	ptl_unlock(mm);
	if (r == 0)
		mm_protect_range(mm, start, end, prot);
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	return r;
}

int mm_map_shared_page(struct mm *mm, uintptr_t va, unsigned prot)
{
	physaddr_t pa = mm_zeroed_frame();      /* zeroed before the lock, as every page (docs/mm.md) */
	int r;

	if (!pa)
		return -ENOMEM;
	ptl_lock(mm);
	r = map_locked(mm, va, pa, 0);
	if (r == 0) {
		frame_set_one(pa);
		*mm_pte_slot(mm, va, false) = pte_for_prot(pa, prot, true);
	} else {
		pmm_free_page(pa);
	}
	ptl_unlock(mm);
	return r;
}

void mm_activate(struct mm *mm, void *kstack_top)
{
	/* Interrupts off: a preemption here could move us and set another CPU's esp0. */
	uint32_t flags = irq_save();

	this_cpu()->tss.esp0 = (uint32_t)kstack_top;
	if (mm)
		switch_mm(mm);
	else
		leave_mm();     /* exit: the mm may be freed next, so do not even keep it lazily */
	irq_restore(flags);
}

/* Called by schedule() for the task it switches to, after it has set tss.esp0. */
void mm_switch_to(struct task *next)
{
	switch_mm(next->mm);    /* a kernel thread keeps what is loaded: lazy TLB (kernel/mm/tlb.c) */
}
