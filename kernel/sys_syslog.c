/*
 * syslog(2): the kernel log ring for dmesg, with Linux's actions and errors
 * (glibc's klogctl(), busybox and util-linux dmesg call it).
 */
#include "kernel/logbuf.h"
#include "kernel/mm/kheap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/syslog.h"
#include "kernel/sched/waitqueue.h"

#define READ_POLL_NS 20000000ULL        /* 20 ms */

/*
 * SYSLOG_ACTION_READ sleeps until something is logged. printk cannot wake
 * it: printk runs with any lock held, even the run-queue locks a wake-up
 * needs. So the reader polls, in 20 ms naps, and a kill ends its wait.
 */
static int wait_for_unread(void)
{
	while (logbuf_unread() == 0) {
		if (task_should_stop_waiting())
			return -EINTR;
		sched_sleep_ns(READ_POLL_NS);
	}
	return 0;
}

/* Copy out through a kernel buffer: the ring's spinlock must not be held across a user fault. */
static long copy_log(char *ubuf, int len, enum logbuf_from from)
{
	size_t want = MIN((size_t)len, (size_t)LOG_BUF_LEN);
	char *kbuf = kmalloc(want);
	size_t n;
	long r;

	if (!kbuf)
		return -ENOMEM;
	n = logbuf_copy(kbuf, want, from);
	r = copy_to_user(ubuf, kbuf, n) < 0 ? -EFAULT : (long)n;
	kfree(kbuf);
	return r;
}

static long check_read_args(char *ubuf, int len)
{
	if (!ubuf || len < 0)
		return -EINVAL;
	if (!access_ok(ubuf, (size_t)len))
		return -EFAULT;
	return 0;
}

long sys_syslog(int type, char *ubuf, int len)
{
	long r;

	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
	case SYSLOG_ACTION_CONSOLE_OFF:
	case SYSLOG_ACTION_CONSOLE_ON:
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		return len < 1 || len > 8 ? -EINVAL : 0;
	case SYSLOG_ACTION_READ:
		if ((r = check_read_args(ubuf, len)) < 0 || len == 0)
			return r;
		if ((r = wait_for_unread()) < 0)
			return r;
		return copy_log(ubuf, len, LOGBUF_UNREAD);
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if ((r = check_read_args(ubuf, len)) < 0 || len == 0)
			return r;
		r = copy_log(ubuf, len, LOGBUF_ALL);
		if (r >= 0 && type == SYSLOG_ACTION_READ_CLEAR)
			logbuf_clear();
		return r;
	case SYSLOG_ACTION_CLEAR:
		logbuf_clear();
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
		return (long)logbuf_unread();
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	default:
		return -EINVAL;
	}
}
