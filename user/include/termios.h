/* <termios.h>: tcgetattr/tcsetattr over TCGETS/TCSETS; struct termios is the kernel's (kernel/uapi/termios.h). */
#ifndef USER_TERMIOS_H
#define USER_TERMIOS_H

#include "kernel/uapi/termios.h"

#define TCSANOW   0
#define TCSADRAIN 1
#define TCSAFLUSH 2

int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int when, const struct termios *t);
void cfmakeraw(struct termios *t);

#endif
