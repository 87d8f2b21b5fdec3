/* The auxiliary vector: what the kernel tells a program at exec (kernel/uapi/auxv.h). */
#ifndef _SYS_AUXV_H
#define _SYS_AUXV_H

#include "kernel/uapi/auxv.h"

unsigned long getauxval(unsigned long type);

#endif
