/* Self-tests of the ELF loader on the initrd's programs and on damaged copies of them. */
#include "fs/file.h"
#include "fs/vfs.h"
#include "kernel/process/elf.h"
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/fcntl.h"

/* A program's bytes, read from the VFS. */
struct image {
	const unsigned char *start, *end;
};

/* Read path into a kmalloc'd buffer; NULL if it is not there (free with image_put). */
static const struct image *image_get(const char *path, struct image *img)
{
	struct file *f;
	unsigned char *buf;
	ssize_t n;

	if (vfs_open_kernel(path, O_RDONLY, &f) < 0)
		return NULL;
	buf = kmalloc((size_t)f->f_inode->i_size);
	n = buf ? kernel_read(f, buf, (size_t)f->f_inode->i_size, 0) : -ENOMEM;
	fput(f);
	if (n <= 0) {
		kfree(buf);
		return NULL;
	}
	img->start = buf;
	img->end = buf + n;
	return img;
}

static void image_put(const struct image *img)
{
	if (img)
		kfree((void *)img->start);
}

KTEST(elf_initrd_programs_present)
{
	struct image a, b, c;

	KT_ASSERT(image_get("/sbin/init", &a) != NULL);
	KT_ASSERT(image_get("/bin/utest", &b) != NULL);
	KT_ASSERT(image_get("/bin/uhelper", &c) != NULL);
	KT_ASSERT_EQ(elf_check(a.start, a.end - a.start), 0);
	image_put(&a);
	image_put(&b);
	image_put(&c);
	KT_ASSERT(image_get("/bin/nothing", &a) == NULL);
}

KTEST(elf_load_utest)
{
	struct image img;
	const struct image *p = image_get("/bin/utest", &img);
	const struct elf32_ehdr *eh;
	struct elf_info info;
	struct mm *mm = mm_create();
	pte_t text;

	KT_ASSERT(p && mm);
	eh = (const void *)p->start;
	KT_ASSERT_EQ(elf_load(mm, p->start, p->end - p->start, &info), 0);
	KT_ASSERT_EQ(info.entry, eh->entry);
	KT_ASSERT_EQ(info.phnum, eh->phnum);
	KT_ASSERT_EQ(info.phdr, USER_TEXT_BASE + eh->phoff);
	KT_ASSERT(info.end % PAGE_SIZE == 0 && info.end > USER_TEXT_BASE);
	text = mm_lookup(mm, eh->entry);
	KT_ASSERT((text & PTE_P) && (text & PTE_U) && !(text & PTE_W));
	/* The bytes at the entry point are the file's bytes. */
	KT_ASSERT(memcmp((char *)P2V(PTE_ADDR(text)) + eh->entry % PAGE_SIZE,
			 p->start + (eh->entry - USER_TEXT_BASE), 16) == 0);
	mm_destroy(mm);
	image_put(p);
}

/* Load a damaged copy of /bin/utest; damage() changes one thing. */
static int load_damaged(void (*damage)(unsigned char *img, size_t *size))
{
	struct image file;
	const struct image *p = image_get("/bin/utest", &file);
	size_t size;
	unsigned char *img;
	struct mm *mm;
	struct elf_info info;
	int r;

	if (!p)
		return -ENOENT;
	size = p->end - p->start;
	img = kmalloc(size);
	mm = mm_create();
	if (!img || !mm) {
		image_put(p);
		return -ENOMEM;
	}
	memcpy(img, p->start, size);
	damage(img, &size);
	r = elf_load(mm, img, size, &info);
	mm_destroy(mm);
	kfree(img);
	image_put(p);
	return r;
}

#define EH(img) ((struct elf32_ehdr *)(img))
#define PH(img, i) ((struct elf32_phdr *)((img) + EH(img)->phoff) + (i))

/* The first loadable segment with file contents (the text). */
static struct elf32_phdr *text_ph(unsigned char *img)
{
	for (int i = 0; i < EH(img)->phnum; i++)
		if (PH(img, i)->type == PT_LOAD && (PH(img, i)->flags & PF_X))
			return PH(img, i);
	return PH(img, 0);
}

static void bad_magic(unsigned char *img, size_t *size) { img[1] = 'X'; }
static void bad_class(unsigned char *img, size_t *size) { EH(img)->class = 2; }
static void bad_machine(unsigned char *img, size_t *size) { EH(img)->machine = 62; }
static void bad_type(unsigned char *img, size_t *size) { EH(img)->type = 3; }
static void bad_phoff(unsigned char *img, size_t *size) { EH(img)->phoff = 0xFFFFFFF0; }
static void bad_phnum(unsigned char *img, size_t *size) { EH(img)->phnum = 60000; }
static void bad_phentsize(unsigned char *img, size_t *size) { EH(img)->phentsize = 8; }
static void truncated(unsigned char *img, size_t *size) { *size = 40; }
static void seg_past_file(unsigned char *img, size_t *size) { text_ph(img)->filesz = 0x10000000; text_ph(img)->memsz = 0x10000000; }
static void filesz_over_memsz(unsigned char *img, size_t *size) { text_ph(img)->filesz = text_ph(img)->memsz + 1; }
static void seg_in_kernel(unsigned char *img, size_t *size) { text_ph(img)->vaddr = 0xC0100000; }
static void seg_wraps(unsigned char *img, size_t *size) { text_ph(img)->vaddr = 0xFFFFF000; }
static void seg_at_zero(unsigned char *img, size_t *size) { text_ph(img)->vaddr = 0; }
static void entry_outside(unsigned char *img, size_t *size) { EH(img)->entry = 0x30000000; }

KTEST(elf_rejects_damaged_images)
{
	KT_ASSERT_EQ(load_damaged(bad_magic), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(bad_class), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(bad_machine), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(bad_type), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(bad_phoff), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(bad_phnum), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(bad_phentsize), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(truncated), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(seg_past_file), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(filesz_over_memsz), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(seg_in_kernel), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(seg_wraps), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(seg_at_zero), -ENOEXEC);
	KT_ASSERT_EQ(load_damaged(entry_outside), -ENOEXEC);
}

KTEST(elf_load_leaks_nothing)
{
	struct image img;
	const struct image *p = image_get("/bin/uhelper", &img);
	struct elf_info info;
	struct mm *mm = mm_create();
	unsigned before;

	KT_ASSERT(p != NULL);
	mm_destroy(mm);                 /* warm the heap */
	KT_ASSERT_EQ(load_damaged(seg_in_kernel), -ENOEXEC);    /* and its sizes */
	/* Let tasks that earlier tests left exiting be freed first: their stacks would count. */
	sched_sleep_ns(20 * 1000 * 1000);
	before = pmm_free_count();
	for (int i = 0; i < 10; i++) {
		mm = mm_create();
		KT_ASSERT(mm != NULL);
		KT_ASSERT_EQ(elf_load(mm, p->start, p->end - p->start, &info), 0);
		mm_destroy(mm);
	}
	KT_ASSERT_EQ(load_damaged(seg_in_kernel), -ENOEXEC);
	KT_ASSERT_EQ(pmm_free_count(), before);
	image_put(p);
}
