/*
 * Self-tests of private file mappings (kernel/mm/filemap.c, docs/mm.md
 * section 9): two address spaces mapping one ramfs page share its frame
 * until one writes; the frame outlives the file's truncation; a program's
 * text pages mapped by exec's loader are the file's own frames.
 */
#include "fs/file.h"
#include "fs/namei.h"
#include "fs/vfs.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/mm/frame_refs.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/process/elf.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"
#include "kernel/uapi/mman.h"
#include "kernel/uapi/stat.h"

#define VA 0x20000000u

static physaddr_t frame_at(struct mm *mm, uintptr_t va)
{
	return PTE_ADDR(mm_lookup(mm, va));
}

/* A ramfs file of two pages, 'a' then 'b', opened for reading and writing. */
static struct file *two_page_file(void)
{
	static const char path[] = "/filemap_ktest.dat";
	static char page[PAGE_SIZE];
	struct walk_start s;
	struct inode *inode;
	struct file *f;
	int r;

	/* Made with vfs_make_node(): O_CREAT needs the umask of a process, and ktests run in none. */
	if (walk_start_get(AT_FDCWD, path, &s) < 0)
		return NULL;
	r = vfs_make_node(&s, path, S_IFREG | 0644, 0, NULL, &inode);
	walk_start_put(&s);
	if (r == 0)
		iput(inode);
	if ((r < 0 && r != -EEXIST) || vfs_open_kernel(path, O_RDWR | O_TRUNC, &f) < 0)
		return NULL;
	memset(page, 'a', PAGE_SIZE);
	kernel_write(f, page, PAGE_SIZE, 0);
	memset(page, 'b', PAGE_SIZE);
	kernel_write(f, page, PAGE_SIZE, PAGE_SIZE);
	return f;
}

KTEST(filemap_two_mappings_share_the_frame_until_written)
{
	struct file *f = two_page_file();
	struct mm *a = mm_create(), *b = mm_create();
	physaddr_t shared, copy;

	KT_ASSERT(f && a && b);
	KT_ASSERT_EQ(f->f_inode->i_size, 2 * PAGE_SIZE);
	KT_ASSERT_EQ(mm_map_file(a, VA, VA + 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, f, 0), 0);
	KT_ASSERT_EQ(mm_map_file(b, VA, VA + 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, f, 0), 0);
	KT_ASSERT_EQ(mm_lookup(a, VA), 0);                      /* nothing until the first touch */
	KT_ASSERT_EQ(mm_fault(a, VA, false), MM_FAULT_DONE);
	KT_ASSERT_EQ(mm_fault(b, VA, false), MM_FAULT_DONE);
	shared = frame_at(a, VA);
	KT_ASSERT(shared != 0);
	KT_ASSERT_EQ(frame_at(b, VA), shared);                  /* one frame: the file's */
	KT_ASSERT_EQ(frame_count(shared), 3);                   /* ramfs's reference and two mappings' */
	KT_ASSERT(!(mm_lookup(a, VA) & PTE_W) && (mm_lookup(a, VA) & PTE_COW));
	/* A write gives the writer its own copy; the other mapping and the file keep theirs. */
	KT_ASSERT_EQ(mm_fault(a, VA, true), MM_FAULT_DONE);
	copy = frame_at(a, VA);
	KT_ASSERT(copy != shared);
	KT_ASSERT_EQ(frame_at(b, VA), shared);
	KT_ASSERT_EQ(frame_count(shared), 2);
	KT_ASSERT_EQ(((char *)P2V(copy))[PAGE_SIZE - 1], 'a');
	/* Truncation drops ramfs's reference, not the mapping's: b's frame stays, intact. */
	KT_ASSERT_EQ(mm_fault(b, VA + PAGE_SIZE, false), MM_FAULT_DONE);
	KT_ASSERT_EQ(f->f_inode->i_op->truncate(f->f_inode, 0), 0);
	KT_ASSERT_EQ(frame_count(shared), 1);
	KT_ASSERT_EQ(((char *)P2V(frame_at(b, VA + PAGE_SIZE)))[0], 'b');
	KT_ASSERT_EQ(mm_fault(a, VA + PAGE_SIZE, false), MM_FAULT_SIGBUS);     /* past the end now */
	mm_destroy(a);
	mm_destroy(b);
	fput(f);
}

KTEST(filemap_unmap_frees_no_file_page_and_leaks_nothing)
{
	struct file *f = two_page_file();
	unsigned before;
	struct mm *a;

	KT_ASSERT(f != NULL);
	before = pmm_free_count();
	a = mm_create();
	KT_ASSERT(a != NULL);
	KT_ASSERT_EQ(mm_map_file(a, VA, VA + 2 * PAGE_SIZE, PROT_READ, f, 0), 0);
	KT_ASSERT_EQ(mm_fault(a, VA + PAGE_SIZE, false), MM_FAULT_DONE);
	mm_destroy(a);                                          /* the process exits */
	KT_ASSERT_EQ(pmm_free_count(), before);                 /* nothing kept, ramfs's page not freed: */
	KT_ASSERT_EQ(f->f_inode->i_size, 2 * PAGE_SIZE);
	{
		char c = 0;

		KT_ASSERT_EQ(kernel_read(f, &c, 1, PAGE_SIZE + 7), 1);
		KT_ASSERT_EQ(c, 'b');
	}
	f->f_inode->i_op->truncate(f->f_inode, 0);
	fput(f);
}

KTEST(filemap_exec_text_is_the_files_frame)
{
	struct elf_info ia, ib;
	struct mm *a = mm_create(), *b = mm_create();
	struct file *f;

	KT_ASSERT(a && b);
	KT_ASSERT_EQ(vfs_open_kernel("/bin/uhelper", O_RDONLY, &f), 0);
	KT_ASSERT_EQ(elf_load_file(a, f, &ia), 0);
	KT_ASSERT_EQ(elf_load_file(b, f, &ib), 0);
	fput(f);                                                /* the regions hold the file */
	KT_ASSERT_EQ(mm_fault(a, ia.entry, false), MM_FAULT_DONE);
	KT_ASSERT_EQ(mm_fault(b, ib.entry, false), MM_FAULT_DONE);
	KT_ASSERT_EQ(frame_at(a, ia.entry), frame_at(b, ib.entry));
	KT_ASSERT(!(mm_lookup(a, ia.entry) & (PTE_W | PTE_COW)));    /* text: read-only, never copied */
	KT_ASSERT_EQ(mm_fault(a, ia.entry, true), MM_FAULT_BAD);
	mm_destroy(a);
	mm_destroy(b);
}
