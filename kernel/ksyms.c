/*
 * Symbol lookup. The Makefile links the kernel once, lists its functions with
 * nm (tools/build/mksyms.sh), and links again with that list in section .ksyms.
 * The list sits after all code, so its size never moves a function.
 */
#include "kernel/ksyms.h"

#include "kernel/lib/string.h"

struct ksym {
	uint32_t addr;
	uint32_t name;          /* offset into ksym_names */
};

extern const struct ksym ksym_table[];
extern const uint32_t ksym_count;
extern const char ksym_names[];
extern char kernel_text_end[];

const char *ksym_lookup(uintptr_t addr, uintptr_t *offset)
{
	uint32_t lo = 0, hi = ksym_count;

	if (ksym_count == 0 || addr < ksym_table[0].addr || addr >= (uintptr_t)kernel_text_end)
		return NULL;
	/* Binary search for the last symbol at or below addr. */
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (ksym_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksym_table[lo].addr;
	return ksym_names + ksym_table[lo].name;
}

uintptr_t ksym_address(const char *name)
{
	for (uint32_t i = 0; i < ksym_count; i++)
		if (strcmp(ksym_names + ksym_table[i].name, name) == 0)
			return ksym_table[i].addr;
	return 0;
}
