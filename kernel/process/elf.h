/* ELF32 for i386: the headers smpix reads, and the loader for static executables. */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include "kernel/types.h"

#define ELF_MAGIC   0x464C457Fu         /* "\x7FELF" read as a little-endian word */
#define ELFCLASS32  1
#define ELFDATA2LSB 1
#define ET_EXEC     2
#define EM_386      3
#define EV_CURRENT  1
#define PT_LOAD     1
#define PF_X        1
#define PF_W        2
#define PF_R        4
#define ELF_MAX_PHDRS 32

struct elf32_ehdr {
	uint32_t magic;
	uint8_t class, data, version, osabi, pad[8];
	uint16_t type, machine;
	uint32_t version2, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf32_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

struct mm;

/* What exec needs to know about a loaded program (for the auxiliary vector and brk). */
struct elf_info {
	uint32_t entry;
	uint32_t phdr;          /* user address of the program headers, 0 if not loaded */
	uint32_t phnum;
	uint32_t end;           /* page-aligned end of the highest segment: the initial break */
};

/* Check an executable image without loading it: 0, or -ENOEXEC. */
int elf_check(const void *image, size_t size);
/* Load a static ELF32 executable image into the empty mm: 0, -ENOEXEC or -ENOMEM. */
int elf_load(struct mm *mm, const void *image, size_t size, struct elf_info *info);

struct file;
/*
 * Map the static ELF32 executable f into the empty mm, its pages on demand
 * from the file (docs/mm.md section 9): 0, -ENOEXEC, -ENOMEM or the read's error.
 */
int elf_load_file(struct mm *mm, struct file *f, struct elf_info *info);

#endif
