/* fork, exit codes, wait, a child killed by a signal, vfork and posix_spawn, through glibc. */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
	static int sum;
	int st;
	pid_t pid;

	for (int i = 1; i <= 5; i++) {
		pid = fork();
		if (pid == 0)
			exit(i);
		if (pid < 0) {
			perror("fork");
			return 1;
		}
	}
	while ((pid = wait(&st)) > 0)
		sum += WEXITSTATUS(st);
	printf("forkwait: five children exited, codes sum to %d\n", sum);
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	printf("forkwait: child killed by signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	{
		static volatile int seen;       /* static: a vfork child must not touch the stack */

		pid = vfork();
		if (pid == 0) {
			seen = 42;              /* the parent's memory: vfork shares it, as on Linux */
			_exit(3);
		}
		waitpid(pid, &st, 0);
		printf("forkwait: vfork child exited %d, its write seen: %s\n", WEXITSTATUS(st),
		       seen == 42 ? "yes" : "no");
	}
	{
		/* posix_spawn: glibc's clone(CLONE_VM | CLONE_VFORK) with a stack of its own. */
		char *argv[] = { "true", NULL };
		int r = posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ);

		if (r == 0 && waitpid(pid, &st, 0) == pid)
			printf("forkwait: posix_spawn /bin/true exited %d\n", WEXITSTATUS(st));
		else
			printf("forkwait: posix_spawn failed: %d\n", r);
	}
	return sum == 15 ? 0 : 1;
}
