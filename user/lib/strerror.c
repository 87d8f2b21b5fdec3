/* strerror, strsignal: the messages glibc prints, indexed by Linux's numbers. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static const char *const error_text[] = {
	[EPERM] = "Operation not permitted",
	[ENOENT] = "No such file or directory",
	[ESRCH] = "No such process",
	[EINTR] = "Interrupted system call",
	[EIO] = "I/O error",
	[ENXIO] = "No such device or address",
	[E2BIG] = "Argument list too long",
	[ENOEXEC] = "Exec format error",
	[EBADF] = "Bad file number",
	[ECHILD] = "No child processes",
	[EAGAIN] = "Try again",
	[ENOMEM] = "Out of memory",
	[EACCES] = "Permission denied",
	[EFAULT] = "Bad address",
	[ENOTBLK] = "Block device required",
	[EBUSY] = "Device or resource busy",
	[EEXIST] = "File exists",
	[EXDEV] = "Cross-device link",
	[ENODEV] = "No such device",
	[ENOTDIR] = "Not a directory",
	[EISDIR] = "Is a directory",
	[EINVAL] = "Invalid argument",
	[ENFILE] = "File table overflow",
	[EMFILE] = "Too many open files",
	[ENOTTY] = "Not a typewriter",
	[ETXTBSY] = "Text file busy",
	[EFBIG] = "File too large",
	[ENOSPC] = "No space left on device",
	[ESPIPE] = "Illegal seek",
	[EROFS] = "Read-only file system",
	[EMLINK] = "Too many links",
	[EPIPE] = "Broken pipe",
	[EDOM] = "Math argument out of domain of func",
	[ERANGE] = "Math result not representable",
	[EDEADLK] = "Resource deadlock would occur",
	[ENAMETOOLONG] = "File name too long",
	[ENOLCK] = "No record locks available",
	[ENOSYS] = "Invalid system call number",
	[ENOTEMPTY] = "Directory not empty",
	[ELOOP] = "Too many symbolic links encountered",
	[EOVERFLOW] = "Value too large for defined data type",
	[ESTALE] = "Stale file handle",
	[EUCLEAN] = "Structure needs cleaning",
};

char *strerror(int err)
{
	static char unknown[32];

	if (err > 0 && err < (int)(sizeof(error_text) / sizeof(error_text[0])) && error_text[err])
		return (char *)error_text[err];
	snprintf(unknown, sizeof(unknown), "Unknown error %d", err);
	return unknown;
}

static const char *const signal_text[] = {
	[SIGHUP] = "Hangup", [SIGINT] = "Interrupt", [SIGQUIT] = "Quit",
	[SIGILL] = "Illegal instruction", [SIGTRAP] = "Trace/breakpoint trap", [SIGABRT] = "Aborted",
	[SIGBUS] = "Bus error", [SIGFPE] = "Floating point exception", [SIGKILL] = "Killed",
	[SIGUSR1] = "User defined signal 1", [SIGSEGV] = "Segmentation fault",
	[SIGUSR2] = "User defined signal 2", [SIGPIPE] = "Broken pipe", [SIGALRM] = "Alarm clock",
	[SIGTERM] = "Terminated", [SIGCHLD] = "Child exited", [SIGCONT] = "Continued",
	[SIGSTOP] = "Stopped (signal)", [SIGTSTP] = "Stopped", [SIGTTIN] = "Stopped (tty input)",
	[SIGTTOU] = "Stopped (tty output)", [SIGWINCH] = "Window changed", [SIGSYS] = "Bad system call",
};

const char *strsignal(int sig)
{
	static char unknown[32];

	if (sig > 0 && sig < (int)(sizeof(signal_text) / sizeof(signal_text[0])) && signal_text[sig])
		return signal_text[sig];
	snprintf(unknown, sizeof(unknown), "Signal %d", sig);
	return unknown;
}
