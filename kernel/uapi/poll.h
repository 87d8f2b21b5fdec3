/* poll(2), as Linux i386 has it (asm-generic/poll.h). Shared with user space. */
#ifndef SMPIX_UAPI_POLL_H
#define SMPIX_UAPI_POLL_H

struct pollfd {
	int fd;
	short events;                   /* what the caller waits for */
	short revents;                  /* what is true now (POLLERR, POLLHUP, POLLNVAL always count) */
};

#define POLLIN     0x0001           /* a read would not block */
#define POLLPRI    0x0002
#define POLLOUT    0x0004           /* a write would not block */
#define POLLERR    0x0008           /* the other end is gone (a pipe's writer with no reader) */
#define POLLHUP    0x0010           /* hung up: a pipe's reader with no writer */
#define POLLNVAL   0x0020           /* fd is not open */
#define POLLRDNORM 0x0040
#define POLLWRNORM 0x0100

#endif
