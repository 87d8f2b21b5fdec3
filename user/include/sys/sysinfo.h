/* <sys/sysinfo.h>: sysinfo(2), Linux i386's 64-byte struct (RAM counted in mem_unit bytes). */
#ifndef USER_SYS_SYSINFO_H
#define USER_SYS_SYSINFO_H

#include <stdint.h>

struct sysinfo {
	int32_t uptime;
	uint32_t loads[3];
	uint32_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint32_t totalhigh, freehigh;
	uint32_t mem_unit;
	char reserved[8];
};

int sysinfo(struct sysinfo *info);

#endif
