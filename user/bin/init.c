/* /bin/init: the default first process. Says hello, then adopts and reaps orphans forever. */
#include "ulib.h"

int main(int argc, char **argv)
{
	printf("init: pid %d running in user mode\n", getpid());
	for (;;) {
		int status;

		if (wait4(-1, &status, 0, 0) == -ECHILD)
			msleep(1000);
	}
}
