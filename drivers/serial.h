/* The 16550 UART on COM1: the kernel's console. */
#ifndef DRIVERS_SERIAL_H
#define DRIVERS_SERIAL_H

#include "kernel/types.h"

void serial_init(void);
/* One byte out; '\n' goes out as "\r\n" (for printk). */
void serial_putc(char c);
/* One byte out, as it is (the tty has done its own output processing). */
void serial_putc_raw(char c);
/* Returns a received byte, or -1 if none is waiting (from the ring once the IRQ is on). */
int serial_getc_nowait(void);
/* Ask for the UART's receive interrupt (once interrupt lines can be routed). */
void serial_enable_irq(void);
/* Read one byte from the input ring (filled by the interrupt handler), sleeping until one comes. */
int serial_read_byte(void);
/* Give every received byte to fn (in interrupt context) instead of the ring; NULL: back to the ring. */
void serial_set_input_handler(void (*fn)(char c));

#endif
