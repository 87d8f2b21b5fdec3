/* <sys/klog.h>: syslog(2), the kernel log (kernel/uapi/syslog.h has the actions). */
#ifndef USER_SYS_KLOG_H
#define USER_SYS_KLOG_H

#include "kernel/uapi/syslog.h"

int klogctl(int type, char *buf, int len);

#endif
