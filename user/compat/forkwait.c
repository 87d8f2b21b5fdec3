/* fork, exit codes, wait, and a child killed by a signal, through glibc. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

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
	pid = vfork();
	if (pid == 0)
		_exit(3);
	waitpid(pid, &st, 0);
	printf("forkwait: vfork child exited %d\n", WEXITSTATUS(st));
	return sum == 15 ? 0 : 1;
}
