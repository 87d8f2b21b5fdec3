/*
 * compat-threadexit: how a glibc pthread program ends from a thread. A
 * thread that calls execve replaces the whole process (the others are
 * gone, the pid stays); a thread that faults kills the whole process with
 * SIGSEGV, which its parent sees. Deterministic output, compared with
 * Linux's by tools/test/cases/45_threads.py.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *self;
static char pidbuf[16];

static void *exec_me(void *arg)
{
	char *argv[] = { (char *)self, "--after-exec", pidbuf, NULL };

	(void)arg;
	usleep(10000);
	execv(self, argv);
	_exit(99);
}

static void *forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *fault(void *arg)
{
	(void)arg;
	usleep(10000);
	return (void *)(long)*(volatile int *)0;
}

/* Run body in a child process; its wait status. */
static int in_child(void (*body)(void))
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		body();
		_exit(98);
	}
	waitpid(pid, &st, 0);
	return st;
}

static void exec_from_thread(void)
{
	pthread_t a, b;

	snprintf(pidbuf, sizeof(pidbuf), "%d", getpid());
	pthread_create(&a, NULL, forever, NULL);
	pthread_create(&b, NULL, exec_me, NULL);
	pthread_join(a, NULL);
}

static void fault_in_thread(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, forever, NULL);
	pthread_create(&b, NULL, fault, NULL);
	pthread_join(a, NULL);
}

int main(int argc, char **argv)
{
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && strcmp(argv[1], "--after-exec") == 0)
		return atoi(argv[2]) == getpid() ? 0 : 1;
	self = access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : argv[0];
	st = in_child(exec_from_thread);
	printf("threadexit: execve from a thread: exited %d, pid kept\n",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	st = in_child(fault_in_thread);
	printf("threadexit: a thread faulted: its process was killed by signal %d (%s)\n",
	       WIFSIGNALED(st) ? WTERMSIG(st) : 0, WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "-");
	return 0;
}
