/*
 * The 16550 UART on COM1: set-up, polled output (for printk, panics and the
 * early boot log) and interrupt-driven input into a small ring. Output by
 * interrupt, for the console tty, is drivers/tty/serial_tx.c.
 */
#include "drivers/tty/serial.h"

#include "drivers/tty/uart.h"
#include "kernel/locking/atomic.h"
#include "kernel/irq.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/x86/x86.h"

#define RING_SIZE 256           /* a power of two: indices wrap with a mask */

bool serial_present;
static bool irq_enabled;        /* input arrives by interrupt, into the ring */

/* Protects the input ring (head, tail, buf): filled by the interrupt, drained by readers on any CPU. */
static spinlock_t ring_lock = SPINLOCK_INIT("serial ring");
static uint32_t ring_head, ring_tail;   /* free-running; head - tail bytes are waiting */
static char ring_buf[RING_SIZE];
static void (*input_handler)(char c);
static struct wait_queue input_wait;    /* tasks in serial_read_byte(), woken when bytes arrive */

void serial_init(void)
{
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, LCR_DLAB);
	outb(COM1 + REG_DATA, 1);       /* divisor 1: 115200 baud */
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, LCR_8N1);
	outb(COM1 + REG_FCR, 0xC7);     /* enable and clear FIFOs, 14-byte threshold */
	outb(COM1 + REG_MCR, MCR_DTR_RTS_OUT2);
	/* A missing UART reads back 0xFF from every register. */
	serial_present = inb(COM1 + REG_LSR) != 0xFF;
}

void serial_putc_raw(char c)
{
	if (!serial_present)
		return;
	for (int spins = 0; !(inb(COM1 + REG_LSR) & LSR_THR_EMPTY) && spins < 100000; spins++)
		cpu_relax();
	outb(COM1 + REG_DATA, (uint8_t)c);
}

/* The kernel's own messages: a terminal needs \r\n to start a line. */
void serial_putc(char c)
{
	if (c == '\n')
		serial_putc_raw('\r');
	serial_putc_raw(c);
}

static int poll_uart(void)
{
	if (!serial_present || !(inb(COM1 + REG_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1 + REG_DATA);
}

int serial_getc_nowait(void)
{
	uint32_t flags;
	int c = -1;

	if (!irq_enabled)
		return poll_uart();
	spin_lock_irqsave(&ring_lock, flags);
	if (ring_head != ring_tail)
		c = (uint8_t)ring_buf[ring_tail++ % RING_SIZE];
	spin_unlock_irqrestore(&ring_lock, flags);
	return c;
}

int serial_read_byte(void)
{
	int c;

	/* Before the interrupt is on, nobody would wake us: poll (boot-time use only). */
	if (!irq_enabled) {
		while ((c = poll_uart()) < 0)
			cpu_relax();
		return c;
	}
	/* Sleep, not spin: a waiting task must leave its CPU to those that have work. */
	wait_event(input_wait, (c = serial_getc_nowait()) >= 0);
	return c;
}

void serial_set_input_handler(void (*fn)(char c))
{
	WRITE_ONCE(input_handler, fn);
}

/* When full, drop the new byte, as a UART's own FIFO does. */
static void ring_put(char c)
{
	spin_lock(&ring_lock);
	if (ring_head - ring_tail < RING_SIZE)
		ring_buf[ring_head++ % RING_SIZE] = c;
	spin_unlock(&ring_lock);
}

/* Received bytes: drain the UART's FIFO, to the input handler if one is set, else into the ring. */
static void receive_interrupt(void)
{
	void (*fn)(char) = READ_ONCE(input_handler);
	bool queued = false;
	int c;

	while ((c = poll_uart()) >= 0) {
		if (fn) {
			fn((char)c);
		} else {
			ring_put((char)c);
			queued = true;
		}
	}
	if (queued)
		wake_up(&input_wait);
}

/* IRQ4: one line for both directions; look at each (the UART says which in IIR, but both are cheap). */
static void serial_interrupt(int irq)
{
	receive_interrupt();
	serial_tx_interrupt();
}

void serial_enable_irq(void)
{
	if (!serial_present)
		return;
	wait_queue_init(&input_wait, "serial input");
	if (irq_request(IRQ_SERIAL, serial_interrupt, "serial") != 0)
		return;
	irq_enabled = true;
	outb(COM1 + REG_IER, IER_RX);
	serial_tx_start_irq_mode();
}
