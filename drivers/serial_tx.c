/*
 * Serial output by interrupt: the console tty's bytes go into a bounded
 * transmit ring, and the UART's "transmitter empty" interrupt moves them
 * out, a FIFO's worth (16 bytes) at a time. A writer that finds the ring
 * full sleeps on tx_wait until the interrupt has made room.
 *
 * Why not write each byte out and wait for the UART, as printk does? A
 * task that polls the UART holds its CPU (and any lock it has, the BKL
 * too) for as long as the output takes: 64 KiB at the speed of an
 * emulated UART is seconds. A task that sleeps lets everything go. This
 * is what Linux's 8250 driver does (its circular transmit buffer,
 * drained by serial8250_tx_chars, and WAKEUP_CHARS); printk, panics and
 * the early boot log keep the polled path (serial_putc), which works with
 * interrupts off and with everything else broken.
 *
 * Order: printk first pushes out what the ring holds (serial_sync_begin),
 * so a kernel message never jumps ahead of output written before it.
 */
#include "drivers/serial.h"

#include "drivers/uart.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/x86/x86.h"

#define TX_RING_SIZE 4096       /* a power of two: indices wrap with a mask */

/*
 * Protects the ring (tx_head, tx_tail, tx_ring), ier and tx_running. The
 * interrupt takes it, so everyone else takes it with interrupts off.
 */
static spinlock_t tx_lock = SPINLOCK_INIT("serial tx");
static uint32_t tx_head, tx_tail;       /* free-running; head - tail bytes wait */
static char tx_ring[TX_RING_SIZE];
static uint8_t ier;                     /* what IER holds: we change THRI, keep RX */
static bool tx_running;                 /* THRI is on: an interrupt will come and drain */
static bool irq_mode;                   /* set once, at boot: before it, every write polls */
static struct wait_queue tx_wait;       /* writers waiting for SERIAL_TX_WAKEUP bytes of room */
static uint32_t last_tail;              /* for the watchdog: did the ring move since the last tick? */

static uint32_t ring_used(void)
{
	return tx_head - tx_tail;
}

/* Up to a FIFO's worth of bytes from the ring to the UART, if its FIFO is empty. */
static void pump_locked(void)
{
	if (!(inb(COM1 + REG_LSR) & LSR_THR_EMPTY))
		return;         /* still sending: its interrupt will come when it is done */
	for (int i = 0; i < UART_FIFO_SIZE && ring_used(); i++)
		outb(COM1 + REG_DATA, (uint8_t)tx_ring[tx_tail++ % TX_RING_SIZE]);
}

static void set_ier_locked(uint8_t value)
{
	if (ier != value)
		outb(COM1 + REG_IER, value);
	ier = value;
}

/*
 * Start the transmitter if it is idle: turning THRI on while the FIFO is
 * empty makes the UART interrupt at once, and each interrupt after that
 * comes when the 16 bytes it was given have gone.
 */
static void start_locked(void)
{
	if (tx_running || !ring_used())
		return;
	tx_running = true;
	pump_locked();
	set_ier_locked(ier | IER_THRI);
}

void serial_tx_interrupt(void)
{
	bool wake;

	if (!irq_mode)
		return;
	spin_lock(&tx_lock);            /* in the interrupt: interrupts are off already */
	pump_locked();
	if (!ring_used()) {
		tx_running = false;
		set_ier_locked(ier & ~IER_THRI);
	}
	wake = TX_RING_SIZE - ring_used() >= SERIAL_TX_WAKEUP;
	spin_unlock(&tx_lock);
	if (wake)
		wake_up(&tx_wait);
}

/*
 * The backup for a lost interrupt, from the timer on CPU 0 (as Linux's
 * 8250 has one for UARTs whose THRE interrupt is unreliable): if bytes
 * wait and none went out since the last tick, push some out by hand.
 */
void serial_tx_watchdog(void)
{
	uint32_t flags;

	if (!irq_mode || !READ_ONCE(tx_running))
		return;
	spin_lock_irqsave(&tx_lock, flags);
	if (tx_running && tx_tail == last_tail)
		pump_locked();
	last_tail = tx_tail;
	spin_unlock_irqrestore(&tx_lock, flags);
}

void serial_tx_start_irq_mode(void)
{
	wait_queue_init(&tx_wait, "serial tx");
	ier = IER_RX;
	WRITE_ONCE(irq_mode, true);
}

uint32_t serial_tx_room(void)
{
	if (!irq_mode)
		return TX_RING_SIZE;    /* polled: any amount fits, it just takes its time */
	return TX_RING_SIZE - READ_ONCE(tx_head) + READ_ONCE(tx_tail);
}

struct wait_queue *serial_tx_wait_queue(void)
{
	return &tx_wait;
}

/* Drain the ring by polling, oldest byte first. tx_lock is held, interrupts are off. */
static void drain_polled_locked(void)
{
	while (ring_used())
		serial_putc_raw(tx_ring[tx_tail++ % TX_RING_SIZE]);
}

void serial_tx_write(const char *s, size_t n)
{
	uint32_t flags;

	if (!serial_present)
		return;
	if (!irq_mode) {
		for (size_t i = 0; i < n; i++)
			serial_putc_raw(s[i]);
		return;
	}
	spin_lock_irqsave(&tx_lock, flags);
	for (size_t i = 0; i < n; i++) {
		/* Full: the caller did not ask for room (an echo). Make some, by hand. */
		if (ring_used() == TX_RING_SIZE)
			serial_putc_raw(tx_ring[tx_tail++ % TX_RING_SIZE]);
		tx_ring[tx_head++ % TX_RING_SIZE] = s[i];
	}
	start_locked();
	spin_unlock_irqrestore(&tx_lock, flags);
}

void serial_sync_begin(uint32_t *flags)
{
	*flags = irq_save();
	if (!irq_mode)
		return;
	spin_lock(&tx_lock);
	drain_polled_locked();
}

/*
 * No wake_up() here: printk may run with any lock held, a run queue's too.
 * The UART's next interrupt (THRI is still on) finds the ring empty and
 * wakes the writers.
 */
void serial_sync_end(uint32_t flags)
{
	if (irq_mode)
		spin_unlock(&tx_lock);
	irq_restore(flags);
}

void serial_tx_force_unlock(void)
{
	spin_lock_init(&tx_lock, "serial tx");
}
