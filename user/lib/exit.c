/* exit() runs the atexit() functions, last registered first, then ends the process. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#define ATEXIT_MAX 32                   /* POSIX asks for at least 32 */

static void (*atexit_fns[ATEXIT_MAX])(void);
static int atexit_count;

int atexit(void (*fn)(void))
{
	if (atexit_count == ATEXIT_MAX)
		return -1;
	atexit_fns[atexit_count++] = fn;
	return 0;
}

void exit(int status)
{
	while (atexit_count > 0)
		atexit_fns[--atexit_count]();
	_exit(status);
}

void abort(void)
{
	sigset_t all = 0;

	signal(SIGABRT, SIG_DFL);
	sigprocmask(SIG_SETMASK, &all, NULL);
	raise(SIGABRT);
	_exit(127);
}
