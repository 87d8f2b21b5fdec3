/* <sys/types.h>: the POSIX type names (declared once, in <unistd.h>). */
#ifndef USER_SYS_TYPES_H
#define USER_SYS_TYPES_H

#include <unistd.h>

typedef unsigned int mode_t;

#endif
