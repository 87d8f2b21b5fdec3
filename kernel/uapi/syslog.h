/* syslog(2) actions (Linux's SYSLOG_ACTION_*; glibc calls the call klogctl()). */
#ifndef KERNEL_UAPI_SYSLOG_H
#define KERNEL_UAPI_SYSLOG_H

#define SYSLOG_ACTION_CLOSE         0   /* nothing to do */
#define SYSLOG_ACTION_OPEN          1   /* nothing to do */
#define SYSLOG_ACTION_READ          2   /* wait for unread messages, then consume them */
#define SYSLOG_ACTION_READ_ALL      3   /* the last len bytes of the log, consuming nothing */
#define SYSLOG_ACTION_READ_CLEAR    4   /* READ_ALL, then CLEAR */
#define SYSLOG_ACTION_CLEAR         5   /* forget everything logged so far (for READ_ALL) */
#define SYSLOG_ACTION_CONSOLE_OFF   6
#define SYSLOG_ACTION_CONSOLE_ON    7
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
#define SYSLOG_ACTION_SIZE_UNREAD   9   /* bytes READ would return now */
#define SYSLOG_ACTION_SIZE_BUFFER   10  /* the size of the log buffer */

#endif
