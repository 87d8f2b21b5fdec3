/*
 * The 16550 UART's registers, shared by the two halves of its driver:
 * drivers/tty/serial.c (set-up, polled output, input by interrupt) and
 * drivers/tty/serial_tx.c (output by interrupt through a transmit ring).
 */
#ifndef DRIVERS_UART_H
#define DRIVERS_UART_H

#define COM1 0x3F8
#define REG_DATA  0     /* receive / transmit buffer (DLAB=0) */
#define REG_IER   1     /* interrupt enable */
#define REG_FCR   2     /* FIFO control */
#define REG_LCR   3     /* line control */
#define REG_MCR   4     /* modem control */
#define REG_LSR   5     /* line status */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20     /* the transmit FIFO is empty: up to UART_FIFO_SIZE bytes fit */
#define LCR_DLAB 0x80
#define LCR_8N1  0x03
#define MCR_DTR_RTS_OUT2 0x0B   /* OUT2 gates the UART's interrupt line on PCs */
#define IER_RX 0x01             /* interrupt when a byte has arrived */
#define IER_THRI 0x02           /* interrupt when the transmit FIFO has emptied */
#define UART_FIFO_SIZE 16

#endif
