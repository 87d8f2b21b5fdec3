/* The kernel's name and version, printed in the boot banner. */
#ifndef KERNEL_VERSION_H
#define KERNEL_VERSION_H

#define SMPIX_VERSION "0.1"

#endif
