/* The IDE driver's PRD tables (drivers/block/ide_dma.c): 64 KiB lines, joins, a full table. */
#include "drivers/block/ide_dma.h"
#include "kernel/ktest.h"

KTEST(ide_dma_prd_cuts_at_64k_lines)
{
	struct ide_prd prd[4];
	int n = ide_prd_add(prd, 4, 0, 0x1FC00, 0x800);         /* 1 KiB each side of the line at 0x20000 */

	KT_ASSERT_EQ(n, 2);
	KT_ASSERT_EQ(prd[0].addr, 0x1FC00u);
	KT_ASSERT_EQ(prd[0].count, 0x400);
	KT_ASSERT_EQ(prd[1].addr, 0x20000u);
	KT_ASSERT_EQ(prd[1].count, 0x400);
}

KTEST(ide_dma_prd_joins_contiguous_memory)
{
	struct ide_prd prd[4];
	int n = ide_prd_add(prd, 4, 0, 0x30000, 0x400);

	n = ide_prd_add(prd, 4, n, 0x30400, 0x400);             /* right after: the same entry */
	KT_ASSERT_EQ(n, 1);
	KT_ASSERT_EQ(prd[0].count, 0x800);
	n = ide_prd_add(prd, 4, n, 0x50000, 0x200);             /* elsewhere: a new one */
	KT_ASSERT_EQ(n, 2);
	KT_ASSERT_EQ(prd[1].addr, 0x50000u);
	KT_ASSERT_EQ(prd[1].count, 0x200);
}

KTEST(ide_dma_prd_whole_window_is_count_0)
{
	struct ide_prd prd[4];
	int n = ide_prd_add(prd, 4, 0, 0x40000, 0x8000);

	n = ide_prd_add(prd, 4, n, 0x48000, 0x8000);            /* fills the window to its end */
	KT_ASSERT_EQ(n, 1);
	KT_ASSERT_EQ(prd[0].count, 0);                          /* 64 KiB, as the controller spells it */
	n = ide_prd_add(prd, 4, n, 0x50000, 0x400);             /* the next window: never joined */
	KT_ASSERT_EQ(n, 2);
}

KTEST(ide_dma_prd_table_full)
{
	struct ide_prd prd[1];

	KT_ASSERT_EQ(ide_prd_add(prd, 1, 0, 0x1FC00, 0x800), -1);       /* needs two entries */
	KT_ASSERT_EQ(ide_prd_add(prd, 1, 0, 0x10000, 0x800), 1);
}
