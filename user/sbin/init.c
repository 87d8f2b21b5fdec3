/*
 * /sbin/init: the first process (the kernel's default; init= names another).
 * It starts a shell on the console in a session of its own, starts it again
 * whenever it exits, and meanwhile reaps every orphan the kernel hands it.
 *
 *   init [PROGRAM [ARG...]]   run PROGRAM instead of /bin/sh (e.g. from a #! line)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONSOLE "/dev/console"
/*
 * The PATH everything started from here inherits, unless the kernel command line gave one:
 * smpix's own tools first, then busybox's applets where an initrd has them (make BUSYBOX=1,
 * docs/userland.md); a directory that does not exist costs a failed lookup, nothing more.
 */
#define DEFAULT_PATH "/bin:/sbin:/usr/lib/busybox/bin"

/*
 * In the child: a new session whose controlling terminal is the console, so
 * the tty sends ^C to the shell's foreground job. Until the real tty driver
 * lands, TIOCSCTTY answers ENOTTY: then there is no controlling tty, and the
 * shell still works, without job control.
 */
static void open_console(void)
{
	int fd;

	setsid();
	fd = open(CONSOLE, O_RDWR);
	if (fd < 0) {
		dprintf(2, "init: %s: %s\n", CONSOLE, strerror(errno));
		return;
	}
	if (ioctl(fd, TIOCSCTTY, 0) < 0 && errno != ENOTTY && errno != EINVAL)
		dprintf(2, "init: TIOCSCTTY: %s\n", strerror(errno));
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static pid_t start_shell(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		open_console();
		execv(argv[0], argv);
		dprintf(2, "init: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		dprintf(2, "init: fork: %s\n", strerror(errno));
	return pid;
}

/*
 * A disk attached (make qemu DISK=1, or any hda with partitions): its first
 * partition is taken to be ext2 and mounted on /mnt, so files written there
 * survive a reboot (docs/block.md). No disk, no /dev/hda1: nothing to do.
 */
static void mount_disk(void)
{
	if (access("/dev/hda1", F_OK) < 0)
		return;
	if (syscall(__NR_mount, "/dev/hda1", "/mnt", "ext2", 0, 0) < 0)
		dprintf(2, "init: mount -t ext2 /dev/hda1 /mnt: %s\n", strerror(errno));
	else
		printf("init: /dev/hda1 (ext2) mounted on /mnt\n");
}

int main(int argc, char **argv)
{
	static char *default_shell[] = { "/bin/sh", NULL };
	char **shell = argc > 1 ? argv + 1 : default_shell;
	pid_t sh;

	printf("init: pid %d running in user mode\n", getpid());
	if (!getenv("PATH"))
		setenv("PATH", DEFAULT_PATH, 1);
	/*
	 * The kernel opened the console for us, a session leader, so it is our
	 * controlling terminal; give it up, so the shell's session can take it.
	 */
	ioctl(0, TIOCNOTTY, 0);
	/* A ^C on the console goes to the foreground job, never to init. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	mount_disk();
	for (;;) {
		time_t started = time(NULL);

		sh = start_shell(shell);
		for (;;) {
			int status;
			pid_t pid = wait(&status);

			if (pid < 0) {
				if (errno != EINTR)
					sleep(1);       /* no children at all: fork failed; try again soon */
				if (errno == ECHILD)
					break;
				continue;
			}
			if (pid == sh) {            /* orphans are reaped and forgotten; the shell comes back */
				if (WIFSIGNALED(status))
					printf("init: %s killed by signal %d; starting it again\n",
					       shell[0], WTERMSIG(status));
				break;
			}
		}
		if (time(NULL) - started < 1)
			sleep(1);               /* a shell that cannot start must not spin the CPU */
	}
}
