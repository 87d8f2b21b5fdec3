/* struct sysinfo of the i386 sysinfo() call: memory counts are in units of mem_unit bytes. */
#ifndef KERNEL_UAPI_SYSINFO_H
#define KERNEL_UAPI_SYSINFO_H

#include <stdint.h>

struct sysinfo {
	int32_t uptime;                 /* seconds since boot */
	uint32_t loads[3];              /* the 1, 5, 15 minute load averages, 16 bits of fraction */
	uint32_t totalram;              /* memory the page allocator manages */
	uint32_t freeram;               /* of which free now */
	uint32_t sharedram, bufferram, totalswap, freeswap;    /* smpix: 0 */
	uint16_t procs;                 /* tasks that exist (threads and processes) */
	uint16_t pad;
	uint32_t totalhigh, freehigh;   /* smpix leaves high memory alone: 0 */
	uint32_t mem_unit;              /* bytes per unit above: PAGE_SIZE */
	char _f[8];
};

#endif
