/* The terminal calls: termios and the foreground process group, over the tty ioctls. */
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int tcgetattr(int fd, struct termios *t) { return ioctl(fd, TCGETS, t); }

int tcsetattr(int fd, int when, const struct termios *t)
{
	static const unsigned long cmd[] = { TCSETS, TCSETSW, TCSETSF };

	return ioctl(fd, when >= 0 && when <= 2 ? cmd[when] : TCSETS, t);
}

/* What stty raw and cfmakeraw agree on: no line editing, no signals, 8-bit, one byte at a time. */
void cfmakeraw(struct termios *t)
{
	t->c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	t->c_oflag &= ~OPOST;
	t->c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t->c_cflag &= ~(CSIZE | PARENB);
	t->c_cflag |= CS8;
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

int isatty(int fd)
{
	struct termios t;

	return tcgetattr(fd, &t) == 0;
}

pid_t tcgetpgrp(int fd)
{
	pid_t pgrp;

	return ioctl(fd, TIOCGPGRP, &pgrp) < 0 ? -1 : pgrp;
}

int tcsetpgrp(int fd, pid_t pgrp) { return ioctl(fd, TIOCSPGRP, &pgrp); }
