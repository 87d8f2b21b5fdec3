/* <sys/sysinfo.h>: sysinfo(2), Linux i386's 64-byte struct (kernel/uapi/sysinfo.h; RAM counted in mem_unit bytes). */
#ifndef USER_SYS_SYSINFO_H
#define USER_SYS_SYSINFO_H

#include "kernel/uapi/sysinfo.h"

int sysinfo(struct sysinfo *info);

#endif
