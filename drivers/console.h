/* /dev/console: the kernel console as a character device (write: serial + VGA; read: serial input). */
#ifndef DRIVERS_CONSOLE_H
#define DRIVERS_CONSOLE_H

#define CONSOLE_MAJOR 5         /* Linux's numbers for /dev/console */
#define CONSOLE_MINOR 1

/* Take over serial input and register /dev/console. */
void console_driver_init(void);

#endif
