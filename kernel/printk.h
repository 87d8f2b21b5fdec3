/* printk: formatted kernel messages on the serial console and the VGA screen. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "kernel/types.h"

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
void console_init(void);
void console_putc(char c);
/* After a panic the console lock may be held by a stopped CPU: take it over. */
void console_force_unlock(void);

#endif
