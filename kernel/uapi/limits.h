/* File-system limits, Linux's values (linux/limits.h). Shared with user space. */
#ifndef SMPIX_UAPI_LIMITS_H
#define SMPIX_UAPI_LIMITS_H

#define PATH_MAX 4096           /* bytes in a path, the terminating NUL included */
#define NAME_MAX 255            /* bytes in one path component */
#define PIPE_BUF 4096           /* writes up to this size to a pipe are atomic */

#endif
