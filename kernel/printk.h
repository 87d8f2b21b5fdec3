/* printk: formatted kernel messages on the serial console and the VGA screen. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "kernel/types.h"

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
void console_init(void);
void console_putc(char c);
/* Bytes as they are (no \n -> \r\n), whole, to every console: the tty's output. Not logged. */
void console_write_raw(const char *s, size_t n);
/* The timer's call on CPU 0, tick is its count: screen refresh, serial transmit watchdog. */
void console_tick(uint64_t tick);
/* After a panic the console lock may be held by a stopped CPU: take it over. */
void console_force_unlock(void);

#endif
