/* struct iovec for readv() and writev(), and their limit (linux/uio.h). Shared with user space. */
#ifndef SMPIX_UAPI_UIO_H
#define SMPIX_UAPI_UIO_H

#include <stdint.h>

#define UIO_MAXIOV 1024

struct iovec {
	uint32_t iov_base;              /* a user pointer */
	uint32_t iov_len;
};

#endif
