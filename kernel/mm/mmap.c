/*
 * mmap2, old mmap, munmap, mprotect and mremap: the calls that change the
 * regions of an address space (kernel/mm/vma.c) and their pages.
 *
 * What smpix maps: private anonymous memory, whose pages come on demand
 * through the one fault path (kernel/mm/fault.c), and private mappings of
 * regular files, whose pages come on demand from the file, shared with its
 * page cache until written (kernel/mm/filemap.c, docs/mm.md section 9). Shared anonymous memory (MAP_SHARED |
 * MAP_ANONYMOUS) is given all its frames at map time, marked PTE_SHARED, so
 * that a fork() shares them writable instead of copy-on-write: that is how a
 * parent and its children share memory (and futexes, kernel/futex/key.c).
 * Shared file mappings would need a page cache: refused. Each step
 * holds mmap_sem for writing, and page_table_lock only for one region-list
 * change or one page table's worth of pages (docs/mm.md, sections 1 and 8). Errors follow Linux's do_mmap(),
 * do_munmap(), do_mprotect_pkey() and mremap(), check for check.
 */
#include "kernel/mm/mm.h"

#include "fs/fdtable.h"
#include "fs/file.h"
#include "fs/inode.h"
#include "fs/mount.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vma.h"
#include "kernel/syscall/handlers.h"
#include "kernel/sched/task.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/mman.h"
#include "kernel/uapi/stat.h"

#define PROT_ALL (PROT_READ | PROT_WRITE | PROT_EXEC)
#define PROT_SEM       0x8              /* accepted and meaningless on x86, as in Linux */
#define PROT_GROWSDOWN 0x01000000
#define PROT_GROWSUP   0x02000000
#define MREMAP_DONTUNMAP 4

/*
 * Why a file cannot be mapped privately with prot: -EACCES (not open for
 * reading), -EPERM (executable, from a noexec mount: Linux's path_noexec()
 * in do_mmap()), -ENODEV (not a regular file).
 */
static int file_mappable(struct file *f, unsigned prot)
{
	if ((f->f_flags & O_ACCMODE) == O_WRONLY)
		return -EACCES;
	if ((prot & PROT_EXEC) && mount_noexec(f->f_inode))
		return -EPERM;
	if (!S_ISREG(f->f_inode->i_mode))
		return -ENODEV;         /* pipes, devices, directories: no mmap method, as in Linux */
	return 0;
}

/*
 * Every page of a shared anonymous mapping, now: a page that came on demand
 * after a fork would be each process's own. One page per page_table_lock hold.
 */
static int fill_shared(struct mm *mm, uintptr_t start, size_t len, unsigned prot)
{
	for (size_t off = 0; off < len; off += PAGE_SIZE) {
		int r = mm_map_shared_page(mm, start + off, prot);

		if (r < 0)
			return r;
	}
	return 0;
}

/* The common part of mmap and mmap2. f is referenced or NULL (anonymous). */
static long do_mmap(uintptr_t addr, size_t len, unsigned prot, int flags, struct file *f,
		    unsigned long pgoff)
{
	struct mm *mm = current->mm;
	bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE), shared = false;
	uintptr_t start;
	int r;

	if (len == 0)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (len == 0 || len > USER_TOP)
		return -ENOMEM;
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	if (fixed && addr % PAGE_SIZE)
		return -EINVAL;
	if (fixed && (addr >= USER_TOP || len > USER_TOP - addr))
		return -ENOMEM;
	if (fixed && addr < USER_MMAP_MIN)
		return -EPERM;          /* Linux's mmap_min_addr: page 0 stays unmapped */
	switch (flags & MAP_TYPE) {
	case MAP_PRIVATE:
		break;
	case MAP_SHARED:
	case MAP_SHARED_VALIDATE:
		/* A file's would need a page cache to share: refused as by a file system without mmap. */
		if (f)
			return -ENODEV;
		shared = true;
		break;
	default:
		return -EINVAL;
	}
	if (f && (r = file_mappable(f, prot)) < 0)
		return r;
	/* Linux's heuristic overcommit, as for brk: memory that can never be backed is refused now. */
	if (!f && len / PAGE_SIZE > pmm_usable_count())
		return -ENOMEM;

	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	if ((flags & MAP_FIXED_NOREPLACE) && vma_meets(mm, addr, addr + len)) {
		r = -EEXIST;
	} else {
		start = fixed ? addr : vma_find_gap(mm, addr, len);
		/* A file's pages come on demand from the file (filemap.c): nothing is read now. */
		r = start ? vma_set_file(mm, start, start + len, prot, f, (uint32_t)pgoff) : -ENOMEM;
	}
	ptl_unlock(mm);
	/* MAP_FIXED replaces what was there: its pages go (the region above already did). */
	if (r == 0)
		mm_unmap_range(mm, start, start + len);
	if (r == 0 && shared && (r = fill_shared(mm, start, len, prot)) < 0) {
		ptl_lock(mm);
		vma_remove(mm, start, start + len);
		ptl_unlock(mm);
		mm_unmap_range(mm, start, start + len);
	}
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	if (r < 0)
		return r;
	return (long)start;
}

long sys_mmap2(uintptr_t addr, size_t len, int prot, int flags, int fd, unsigned long pgoff)
{
	struct file *f = NULL;
	long r;

	if (!(flags & MAP_ANONYMOUS)) {
		f = fd_get(fd);
		if (!f)
			return -EBADF;
	}
	r = do_mmap(addr, len, (unsigned)prot & PROT_ALL, flags, f, pgoff);
	if (f)
		fput(f);
	return r;
}

/* The old mmap (90): one pointer to the six arguments, the offset in bytes. */
struct mmap_arg_struct {
	uint32_t addr, len, prot, flags, fd, offset;
};

long sys_mmap(const void *uargs)
{
	struct mmap_arg_struct a;

	if (copy_from_user(&a, uargs, sizeof(a)) < 0)
		return -EFAULT;
	if (a.offset % PAGE_SIZE)
		return -EINVAL;
	return sys_mmap2(a.addr, a.len, (int)a.prot, (int)a.flags, (int)a.fd, a.offset >> PAGE_SHIFT);
}

/* Drop the regions and the pages of [start, start + len). Needs mmap_sem for writing. */
static long unmap(struct mm *mm, uintptr_t start, size_t len)
{
	int r;

	ptl_lock(mm);
	r = vma_remove(mm, start, start + len);
	ptl_unlock(mm);
	/* One TLB shootdown for the whole range, before any of its frames is freed (unmap.c). */
	if (r == 0)
		mm_unmap_range(mm, start, start + len);
	return r;
}

long sys_munmap(uintptr_t addr, size_t len)
{
	struct mm *mm;
	long r;

	if (addr % PAGE_SIZE || addr > USER_TOP || len > USER_TOP - addr)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (len == 0)
		return -EINVAL;
	mm = current->mm;
	down_write(&mm->mmap_sem);
	r = unmap(mm, addr, len);
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	return r;
}

/*
 * Does [start, end) map a file of a noexec mount? Then it may not become
 * executable: Linux's mmap left VM_MAYEXEC off, and mprotect answers
 * -EACCES. Linux decides at mmap time, smpix asks the mount now: the two
 * differ only if a remount changed noexec in between. Needs page_table_lock.
 */
static bool maps_noexec_file(struct mm *mm, uintptr_t start, uintptr_t end)
{
	for (unsigned i = 0; i < mm->nvmas; i++) {
		const struct vma *v = &mm->vmas[i];

		if (v->file && v->start < end && v->end > start && mount_noexec(v->file->f_inode))
			return true;
	}
	return false;
}

long sys_mprotect(uintptr_t addr, size_t len, int prot)
{
	struct mm *mm = current->mm;
	unsigned p = (unsigned)prot;
	uintptr_t end;
	int r;

	if (addr % PAGE_SIZE)
		return -EINVAL;
	if (len == 0)
		return 0;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = addr + len;
	if (len == 0 || end <= addr)
		return -ENOMEM;
	if (p & ~(PROT_ALL | PROT_SEM | PROT_GROWSDOWN | PROT_GROWSUP) ||
	    (p & (PROT_GROWSDOWN | PROT_GROWSUP)) == (PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	p &= PROT_ALL;
	down_write(&mm->mmap_sem);
	ptl_lock(mm);
	/* Linux refuses a range with a hole in it: -ENOMEM. */
	/* The regions keep their files: pages not yet touched still come from them. */
	if (!vma_range_covered(mm, addr, end))
		r = -ENOMEM;
	else if ((p & PROT_EXEC) && maps_noexec_file(mm, addr, end))
		r = -EACCES;
	else
		r = vma_protect(mm, addr, end, p);
	ptl_unlock(mm);
	if (r == 0)
		mm_protect_range(mm, addr, end, p);     /* and one shootdown, before we return */
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	return r;
}

/*
 * Move [old, old + old_len) to a new place (dst, or a free gap when dst is 0)
 * of new_len; like is the region at old (its rights, its file). Needs mmap_sem.
 */
static long move_region(struct mm *mm, uintptr_t old, size_t old_len, uintptr_t dst, size_t new_len,
			const struct vma *like)
{
	uintptr_t to;
	int r;

	ptl_lock(mm);
	to = dst ? dst : vma_find_gap(mm, 0, new_len);
	r = to ? vma_set_file(mm, to, to + new_len, like->prot, like->file,
			      like->file ? vma_pgoff_at(like, old) : 0) : -ENOMEM;
	ptl_unlock(mm);
	if (r < 0)
		return r;
	if (dst)
		mm_unmap_range(mm, to, to + new_len);   /* MREMAP_FIXED replaces what was there */
	r = mm_move_range(mm, old, to, MIN(old_len, new_len));
	if (r < 0) {
		unmap(mm, to, new_len);
		return r;
	}
	r = (int)unmap(mm, old, old_len);
	return r < 0 ? r : (long)to;
}

/* mremap() with mmap_sem held for writing. */
static long do_mremap(struct mm *mm, uintptr_t old, size_t old_len, size_t new_len, int flags,
		      uintptr_t new_addr)
{
	bool grow_in_place;
	struct vma *v, like;

	if (flags & ~(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if (flags & MREMAP_DONTUNMAP)
		return -EINVAL;         /* not supported: it keeps the old range, which needs shared pages */
	if (old % PAGE_SIZE)
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (new_len == 0)
		return -EINVAL;
	if (flags & MREMAP_FIXED) {
		if (new_addr % PAGE_SIZE || new_addr < USER_MMAP_MIN)
			return -EINVAL;
		if (new_addr >= USER_TOP || new_len > USER_TOP - new_addr)
			return -EINVAL;
		if (new_addr < old + old_len && old < new_addr + new_len)
			return -EINVAL;         /* the ranges overlap */
	} else if (old_len >= new_len) {
		long r = old_len > new_len ? unmap(mm, old + new_len, old_len - new_len) : 0;

		return r < 0 ? r : (long)old;
	}
	ptl_lock(mm);
	v = vma_find(mm, old);
	if (!v || old_len > v->end - old || old_len == 0) {
		ptl_unlock(mm);
		return !v || old_len ? -EFAULT : -EINVAL;
	}
	like = *v;              /* a copy: the array moves under vma_set */
	grow_in_place = !(flags & MREMAP_FIXED) && old + old_len == v->end &&
			old + new_len <= USER_MMAP_TOP && old + new_len > old &&
			vma_range_free(mm, old + old_len, old + new_len);
	if (grow_in_place) {
		int r = vma_set_file(mm, old, old + new_len, like.prot, like.file,
				     like.file ? vma_pgoff_at(&like, old) : 0);

		ptl_unlock(mm);
		return r < 0 ? r : (long)old;
	}
	ptl_unlock(mm);
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	return move_region(mm, old, old_len, (flags & MREMAP_FIXED) ? new_addr : 0, new_len, &like);
}

long sys_mremap(uintptr_t old, size_t old_len, size_t new_len, int flags, uintptr_t new_addr)
{
	struct mm *mm = current->mm;
	long r;

	down_write(&mm->mmap_sem);
	r = do_mremap(mm, old, old_len, new_len, flags, new_addr);
	vma_put_files(mm);
	up_write(&mm->mmap_sem);
	return r;
}
