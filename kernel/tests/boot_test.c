/* Self-tests of what the boot path set up: command line, modules, symbols, formatting. */
#include "kernel/cmdline.h"
#include "kernel/ksyms.h"
#include "kernel/ktest.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/multiboot.h"

KTEST(cmdline_has_test_word)
{
	/* We only run because test= was given; the parser must see it. */
	KT_ASSERT(cmdline_get("test") != NULL);
	KT_ASSERT(cmdline_get("no-such-word") == NULL);
}

KTEST(initrd_module_is_cpio_newc)
{
	KT_ASSERT(boot_info.nmodules >= 1);
	KT_ASSERT(boot_info.modules[0].end > boot_info.modules[0].start);
	KT_ASSERT(memcmp(P2V(boot_info.modules[0].start), "070701", 6) == 0);
}

KTEST(ksyms_resolve_kernel_functions)
{
	uintptr_t off = 0;
	const char *name = ksym_lookup((uintptr_t)ktest_run + 3, &off);

	KT_ASSERT(name != NULL);
	KT_ASSERT(strcmp(name, "ktest_run") == 0);
	KT_ASSERT_EQ(off, 3);
	KT_ASSERT_EQ(ksym_address("ktest_run"), (uintptr_t)ktest_run);
	KT_ASSERT(ksym_lookup(0x1000, &off) == NULL);
}

KTEST(snprintf_in_kernel)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%d|%5u|%-4x|%08llx|%s|%c|%p", -42, 7u, 0xab, 0x123456789ULL, "s", 'c',
		 (void *)0xC0100000);
	KT_ASSERT(strcmp(buf, "-42|    7|ab  |123456789|s|c|0xc0100000") == 0);
}
