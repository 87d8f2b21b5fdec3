/*
 * The ELF loader: checks every header field it relies on (an executable is
 * user input), then maps each PT_LOAD segment into a fresh address space.
 * exec maps them from the file (elf_load_file): the pages come on demand,
 * shared with the file's page cache until written (kernel/mm/filemap.c),
 * and only the rest of memsz past the file's bytes (bss) is anonymous. The
 * ktests load images from memory (elf_load), copying the bytes.
 */
#include "kernel/process/elf.h"

#include "fs/file.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/mman.h"

/* hdr_len bytes of headers read from the start of a file of size bytes. */
static int check_ehdr(const struct elf32_ehdr *eh, size_t hdr_len, size_t size)
{
	uint64_t ph_end;

	if (hdr_len < sizeof(*eh) || eh->magic != ELF_MAGIC)
		return -ENOEXEC;
	if (eh->class != ELFCLASS32 || eh->data != ELFDATA2LSB || eh->version != EV_CURRENT)
		return -ENOEXEC;
	if (eh->type != ET_EXEC || eh->machine != EM_386)
		return -ENOEXEC;
	if (eh->phentsize != sizeof(struct elf32_phdr) || eh->phnum == 0 || eh->phnum > ELF_MAX_PHDRS)
		return -ENOEXEC;
	ph_end = (uint64_t)eh->phoff + (uint64_t)eh->phnum * sizeof(struct elf32_phdr);
	if (ph_end > size || ph_end > hdr_len || eh->phoff % 4)
		return -ENOEXEC;
	return 0;
}

/* A loadable segment must lie in the file and in user space below the stack and heap limit. */
static int check_phdr(const struct elf32_phdr *ph, size_t size)
{
	if (ph->filesz > ph->memsz || ph->memsz == 0)
		return -ENOEXEC;
	if ((uint64_t)ph->offset + ph->filesz > size)
		return -ENOEXEC;
	if (ph->vaddr < PAGE_SIZE || (uint64_t)ph->vaddr + ph->memsz > USER_BRK_MAX)
		return -ENOEXEC;
	return 0;
}

/* The headers (hdr_len bytes from the start of a file of size bytes): 0, or -ENOEXEC. */
static int check_headers(const void *image, size_t hdr_len, size_t size)
{
	const struct elf32_ehdr *eh = image;
	const struct elf32_phdr *ph;
	bool entry_ok = false;
	int r = check_ehdr(eh, hdr_len, size);

	if (r < 0)
		return r;
	ph = (const struct elf32_phdr *)((const char *)image + eh->phoff);
	for (int i = 0; i < eh->phnum; i++) {
		if (ph[i].type != PT_LOAD)
			continue;
		r = check_phdr(&ph[i], size);
		if (r < 0)
			return r;
		if (eh->entry >= ph[i].vaddr && eh->entry - ph[i].vaddr < ph[i].memsz && (ph[i].flags & PF_X))
			entry_ok = true;
	}
	return entry_ok ? 0 : -ENOEXEC;
}

int elf_check(const void *image, size_t size)
{
	return check_headers(image, size, size);
}

/* Map the pages of one segment (pages shared with an earlier segment are kept) and fill them. */
static int load_segment(struct mm *mm, const char *image, const struct elf32_phdr *ph)
{
	uintptr_t start = ALIGN_DOWN(ph->vaddr, PAGE_SIZE);
	uintptr_t end = ALIGN_UP(ph->vaddr + ph->memsz, PAGE_SIZE);
	uint32_t w = (ph->flags & PF_W) ? PTE_W : 0;

	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		int r;

		if (mm_lookup(mm, va)) {
			if (w)
				mm_make_writable(mm, va);
			continue;
		}
		r = mm_alloc_range(mm, va, va + PAGE_SIZE, w);
		if (r < 0)
			return r;
	}
	return mm_copy_in(mm, ph->vaddr, image + ph->offset, ph->filesz);
}

/* Where the program headers are in memory: inside the segment that maps their file bytes. */
static uint32_t phdr_address(const struct elf32_ehdr *eh, const struct elf32_phdr *ph)
{
	uint32_t len = eh->phnum * sizeof(*ph);

	for (int i = 0; i < eh->phnum; i++) {
		if (ph[i].type == PT_LOAD && eh->phoff >= ph[i].offset &&
		    eh->phoff + len <= ph[i].offset + ph[i].filesz)
			return ph[i].vaddr + (eh->phoff - ph[i].offset);
	}
	return 0;
}

int elf_load(struct mm *mm, const void *image, size_t size, struct elf_info *info)
{
	const struct elf32_ehdr *eh = image;
	const struct elf32_phdr *ph;
	int r = elf_check(image, size);

	if (r < 0)
		return r;
	ph = (const struct elf32_phdr *)((const char *)image + eh->phoff);
	info->end = 0;
	for (int i = 0; i < eh->phnum; i++) {
		if (ph[i].type != PT_LOAD)
			continue;
		r = load_segment(mm, image, &ph[i]);
		if (r < 0)
			return r;
		info->end = MAX(info->end, (uint32_t)ALIGN_UP(ph[i].vaddr + ph[i].memsz, PAGE_SIZE));
	}
	info->entry = eh->entry;
	info->phdr = phdr_address(eh, ph);
	info->phnum = eh->phnum;
	return 0;
}

/* ---- exec: segments mapped from the file ------------------------------------------- */

static const char zeros[PAGE_SIZE];

static unsigned prot_of(const struct elf32_phdr *ph)
{
	return PROT_READ | ((ph->flags & PF_W) ? PROT_WRITE : 0) | ((ph->flags & PF_X) ? PROT_EXEC : 0);
}

/*
 * Zero the bytes of the page holding file_end past it: the file's next bytes
 * must not show in the bss (Linux's padzero()). The write copies the page
 * (copy-on-write); a segment not meant to be written is made so for it.
 */
static int zero_tail(struct mm *mm, uintptr_t file_end, unsigned prot)
{
	uintptr_t page = ALIGN_DOWN(file_end, PAGE_SIZE);
	int r;

	if (!(prot & PROT_WRITE) && (r = mm_protect(mm, page, page + PAGE_SIZE, prot | PROT_WRITE)) < 0)
		return r;
	r = mm_copy_in(mm, file_end, zeros, page + PAGE_SIZE - file_end);
	if (r == 0 && !(prot & PROT_WRITE))
		r = mm_protect(mm, page, page + PAGE_SIZE, prot);
	return r;
}

/*
 * One PT_LOAD segment: its file bytes as a private mapping of f, the rest of
 * memsz anonymous. shared_prot: the rights of an earlier segment whose last
 * page is this one's first (then the page gets both), else 0. The file
 * offset and the address must agree modulo the page size, as for Linux's mmap.
 */
static int map_segment(struct mm *mm, struct file *f, const struct elf32_phdr *ph, unsigned shared_prot)
{
	uintptr_t start = ALIGN_DOWN(ph->vaddr, PAGE_SIZE), file_end = ph->vaddr + ph->filesz;
	uintptr_t file_pages_end = ph->filesz ? ALIGN_UP(file_end, PAGE_SIZE) : start;
	uintptr_t end = ALIGN_UP(ph->vaddr + ph->memsz, PAGE_SIZE);
	unsigned prot = prot_of(ph);
	uint32_t pgoff = ph->offset >> PAGE_SHIFT;
	int r = 0;

	if ((ph->vaddr - ph->offset) % PAGE_SIZE)
		return -ENOEXEC;
	if (start < file_pages_end)
		r = mm_map_file(mm, start, file_pages_end, prot, f, pgoff);
	if (r == 0 && file_pages_end < end)
		r = mm_map_file(mm, file_pages_end, end, prot, NULL, 0);
	if (r == 0 && shared_prot && (shared_prot | prot) != prot)
		r = mm_protect(mm, start, start + PAGE_SIZE, shared_prot | prot);
	if (r == 0 && ph->filesz && ph->memsz > ph->filesz && file_end % PAGE_SIZE)
		r = zero_tail(mm, file_end, prot | (start == ALIGN_DOWN(file_end, PAGE_SIZE) ? shared_prot : 0));
	return r;
}

/* The PT_LOAD segments of the headers in hdr, mapped from f. */
static int map_segments(struct mm *mm, struct file *f, const void *hdr, struct elf_info *info)
{
	const struct elf32_ehdr *eh = hdr;
	const struct elf32_phdr *ph = (const struct elf32_phdr *)((const char *)hdr + eh->phoff);
	uintptr_t last_end = 0;
	unsigned last_prot = 0;

	info->end = 0;
	for (int i = 0; i < eh->phnum; i++) {
		uintptr_t start = ALIGN_DOWN(ph[i].vaddr, PAGE_SIZE);
		int r;

		if (ph[i].type != PT_LOAD)
			continue;
		r = map_segment(mm, f, &ph[i], start < last_end ? last_prot : 0);
		if (r < 0)
			return r;
		last_end = ALIGN_UP(ph[i].vaddr + ph[i].memsz, PAGE_SIZE);
		last_prot = prot_of(&ph[i]);
		info->end = MAX(info->end, (uint32_t)last_end);
	}
	info->entry = eh->entry;
	info->phdr = phdr_address(eh, ph);
	info->phnum = eh->phnum;
	return 0;
}

int elf_load_file(struct mm *mm, struct file *f, struct elf_info *info)
{
	loff_t size = f->f_inode->i_size;
	void *hdr;
	ssize_t n;
	int r;

	if (size <= 0 || size > 0xFFFFFFFFll)
		return -ENOEXEC;
	hdr = kmalloc(PAGE_SIZE);
	if (!hdr)
		return -ENOMEM;
	/* The headers must lie in the first page (Linux reads them in one piece too). */
	n = kernel_read(f, hdr, PAGE_SIZE, 0);
	r = n < 0 ? (int)n : check_headers(hdr, (size_t)n, (size_t)size);
	if (r == 0)
		r = map_segments(mm, f, hdr, info);
	kfree(hdr);
	return r;
}
