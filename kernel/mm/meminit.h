/* Bring up memory management from the boot memory map: frames, kernel page tables, heap. */
#ifndef KERNEL_MM_MEMINIT_H
#define KERNEL_MM_MEMINIT_H

void mem_init(void);

#endif
