/*
 * The ELF loader: checks every header field it relies on (an executable is
 * user input), then maps each PT_LOAD segment into a fresh address space,
 * copying file bytes and leaving the rest of memsz as zeroes (bss).
 */
#include "kernel/process/elf.h"

#include "kernel/mm/mm.h"
#include "kernel/uapi/errno.h"

static int check_ehdr(const struct elf32_ehdr *eh, size_t size)
{
	uint64_t ph_end;

	if (size < sizeof(*eh) || eh->magic != ELF_MAGIC)
		return -ENOEXEC;
	if (eh->class != ELFCLASS32 || eh->data != ELFDATA2LSB || eh->version != EV_CURRENT)
		return -ENOEXEC;
	if (eh->type != ET_EXEC || eh->machine != EM_386)
		return -ENOEXEC;
	if (eh->phentsize != sizeof(struct elf32_phdr) || eh->phnum == 0 || eh->phnum > ELF_MAX_PHDRS)
		return -ENOEXEC;
	ph_end = (uint64_t)eh->phoff + (uint64_t)eh->phnum * sizeof(struct elf32_phdr);
	if (ph_end > size || eh->phoff % 4)
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

int elf_check(const void *image, size_t size)
{
	const struct elf32_ehdr *eh = image;
	const struct elf32_phdr *ph;
	bool entry_ok = false;
	int r = check_ehdr(eh, size);

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
