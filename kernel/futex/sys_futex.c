/*
 * futex(2) and futex_time64(2): decode the operation and the timeout, then
 * call the operation (futex.c, futex_ops.c). The errno answers, and the order
 * in which they are found, are Linux 6.1's (kernel/futex/syscalls.c there):
 * the timeout first, then FUTEX_CLOCK_REALTIME's -ENOSYS, then the operation.
 */
#include "kernel/futex/futex_internal.h"

#include "kernel/mm/uaccess.h"
#include "kernel/syscall/handlers.h"
#include "kernel/time/timer.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/futex.h"

#define NSEC_PER_SEC 1000000000ULL
/* A timeout this far out (about 136 years) is as good as none, and cannot overflow. */
#define FUTEX_MAX_SEC 0xFFFFFFFFULL

/* The timeouts the two calls read: i386's 32-bit timespec, and the 64-bit one of futex_time64. */
struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};
struct timespec64 {
	int64_t tv_sec;
	int64_t tv_nsec;        /* a 32-bit kernel reads only the low half (Linux's get_timespec64) */
};

/* Only the waits read a timeout; for the other operations that argument is val2. */
static bool cmd_has_timeout(int cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_LOCK_PI ||
	       cmd == FUTEX_LOCK_PI2 || cmd == FUTEX_WAIT_REQUEUE_PI;
}

/*
 * The deadline on clock_ns()'s scale (0 is never a deadline: at worst 1, long
 * past). FUTEX_WAIT's timeout is relative; WAIT_BITSET's is absolute, on
 * CLOCK_MONOTONIC, or CLOCK_REALTIME with the flag. The wall clock is
 * clock_ns() plus a constant in smpix (kernel/time/timer.h), so a realtime
 * deadline converts once.
 */
static int to_deadline(int cmd, int op, int64_t sec, int32_t nsec, uint64_t *deadline)
{
	uint64_t t, now = clock_ns();

	if (sec < 0 || nsec < 0 || (uint64_t)nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if ((uint64_t)sec > FUTEX_MAX_SEC)
		sec = FUTEX_MAX_SEC;
	t = (uint64_t)sec * NSEC_PER_SEC + (uint64_t)nsec;
	if (cmd == FUTEX_WAIT) {
		t += now;
	} else if (op & FUTEX_CLOCK_REALTIME) {
		int64_t rt = clock_realtime_ns();
		t = (int64_t)t > rt ? now + (t - (uint64_t)rt) : now;
	}
	*deadline = t ? t : 1;
	return 0;
}

/* do_futex(): the operation itself. deadline is 0 without a timeout. */
static long do_futex(uint32_t uaddr, int op, uint32_t val, uint64_t deadline, uint32_t val2,
		     uint32_t uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);

	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, shared, val, deadline, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, shared, val, deadline, val3);
	case FUTEX_WAKE:
		return futex_wake(uaddr, shared, (int)val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, shared, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, (int)val2, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, (int)val2, &val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, shared, uaddr2, (int)val, (int)val2, val3);
	default:
		/* FUTEX_FD (gone since 2.6.26) and the priority-inheritance operations. */
		return -ENOSYS;
	}
}

long sys_futex(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	uint64_t deadline = 0;

	if (utime && cmd_has_timeout(cmd)) {
		struct timespec32 ts;
		int r;

		if (copy_from_user(&ts, (const void *)utime, sizeof(ts)) < 0)
			return -EFAULT;
		r = to_deadline(cmd, op, ts.tv_sec, ts.tv_nsec, &deadline);
		if (r)
			return r;
	}
	return do_futex(uaddr, op, val, deadline, utime, uaddr2, val3);
}

long sys_futex_time64(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	uint64_t deadline = 0;

	if (utime && cmd_has_timeout(cmd)) {
		struct timespec64 ts;
		int r;

		if (copy_from_user(&ts, (const void *)utime, sizeof(ts)) < 0)
			return -EFAULT;
		r = to_deadline(cmd, op, ts.tv_sec, (int32_t)ts.tv_nsec, &deadline);
		if (r)
			return r;
	}
	return do_futex(uaddr, op, val, deadline, utime, uaddr2, val3);
}
