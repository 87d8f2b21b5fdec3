/* The console terminal: COM1 and the VGA screen as /dev/console, /dev/ttyS0 and (for its session) /dev/tty. */
#ifndef DRIVERS_CONSOLE_H
#define DRIVERS_CONSOLE_H

/* Linux's device numbers. */
#define TTYAUX_MAJOR  5
#define TTY_MINOR     0         /* /dev/tty: the controlling terminal */
#define CONSOLE_MINOR 1         /* /dev/console */
#define TTYS_MAJOR    4
#define TTYS0_MINOR   64        /* /dev/ttyS0 */

/* Start the console tty, take over serial input and register the nodes. */
void console_driver_init(void);

#endif
