/* The 16550 UART on COM1: polled output, interrupt-driven input into a small ring. */
#include "drivers/serial.h"

#include "kernel/x86.h"

#define COM1 0x3F8
#define REG_DATA  0     /* receive / transmit buffer (DLAB=0) */
#define REG_IER   1     /* interrupt enable */
#define REG_FCR   2     /* FIFO control */
#define REG_LCR   3     /* line control */
#define REG_MCR   4     /* modem control */
#define REG_LSR   5     /* line status */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20
#define LCR_DLAB 0x80
#define LCR_8N1  0x03
#define MCR_DTR_RTS_OUT2 0x0B   /* OUT2 gates the UART's interrupt line on PCs */
#define IER_RX 0x01

static bool serial_present;

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

void serial_putc(char c)
{
	if (!serial_present)
		return;
	if (c == '\n')
		serial_putc('\r');
	for (int spins = 0; !(inb(COM1 + REG_LSR) & LSR_THR_EMPTY) && spins < 100000; spins++)
		cpu_relax();
	outb(COM1 + REG_DATA, (uint8_t)c);
}

int serial_getc_nowait(void)
{
	if (!serial_present || !(inb(COM1 + REG_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1 + REG_DATA);
}
