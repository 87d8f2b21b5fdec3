/* bkld: a kernel thread that lives in the BKL, as Linux 2.6.6's rpciod did (boot word bkld=1). */
#ifndef KERNEL_BKLD_H
#define KERNEL_BKLD_H

#include "kernel/types.h"

/* Start bkld if the command line says bkld=1 (the boot thread calls this). */
void bkld_start_if_asked(void);
/* Start it now (once; later calls do nothing). false if it could not be created. */
bool bkld_start(void);
/* How many times it has woken up with the BKL back in its hands. */
uint64_t bkld_rounds(void);

#endif
