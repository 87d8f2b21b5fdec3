/* The 16550 UART on COM1: the kernel's console. */
#ifndef DRIVERS_SERIAL_H
#define DRIVERS_SERIAL_H

#include "kernel/types.h"

struct wait_queue;

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

/* Whether a UART answered at COM1 (set by serial_init). */
extern bool serial_present;

/* ---- output by interrupt (drivers/tty/serial_tx.c) ---- */

/* A writer waiting for room is woken when at least this much is free. */
#define SERIAL_TX_WAKEUP 256
/*
 * Queue s for the transmit interrupt. Never sleeps: if the ring is full
 * it sends bytes by hand to make room, so a caller that must not wait
 * (an echo) still gets its bytes out in order. Before the interrupt is
 * on (early boot) it writes by polling.
 */
void serial_tx_write(const char *s, size_t n);
/* Bytes that fit in the transmit ring now. */
uint32_t serial_tx_room(void);
/* Where writers sleep until serial_tx_room() >= SERIAL_TX_WAKEUP. */
struct wait_queue *serial_tx_wait_queue(void);
/*
 * Around a synchronous (polled) write, for printk: interrupts off, the
 * ring drained first so the message keeps its place after earlier output.
 */
void serial_sync_begin(uint32_t *flags);
void serial_sync_end(uint32_t flags);
/* From IRQ4's handler (drivers/tty/serial.c): the FIFO has room; wake the transmit thread. */
void serial_tx_interrupt(void);
/* From the tick on CPU 0: restart a transmitter whose interrupt was lost. */
void serial_tx_watchdog(void);
/* From serial_enable_irq(): the console's output goes by interrupt from now on. */
void serial_tx_start_irq_mode(void);
/* For panic: take the transmit lock back from a CPU that was stopped holding it. */
void serial_tx_force_unlock(void);

#endif
