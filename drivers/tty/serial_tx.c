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
 * Who moves the bytes: a kernel thread, "serial tx", not the interrupt
 * handler. The interrupt only masks itself and wakes the thread, as a
 * threaded handler does in Linux (request_threaded_irq, IRQF_ONESHOT).
 * A real UART at 115200 baud empties its FIFO once in 1.4 ms; QEMU's
 * sends each byte the moment it is written, so the next interrupt is
 * already pending when the handler returns. Refilling the FIFO in the
 * handler then kept the CPU that takes IRQ4 (CPU 0) in the handler for
 * as long as a writer on another CPU kept the ring full: the task it had
 * interrupted ran not one instruction for seconds, unseen by the
 * scheduler, which thought it was running (loadtest's forks stalled 5 to
 * 9 s). The thread is a task like any other: the tick shares its CPU out,
 * and while the UART takes bytes as fast as they come the thread simply
 * keeps running, without an interrupt; only a UART that is still busy
 * when the thread looks gets THRI turned on, and its interrupt wakes it.
 *
 * Order: printk first pushes out what the ring holds (serial_sync_begin),
 * so a kernel message never jumps ahead of output written before it.
 */
#include "drivers/tty/serial.h"

#include "drivers/tty/uart.h"
#include "kernel/locking/atomic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/x86/x86.h"

#define TX_RING_SIZE 4096       /* a power of two: indices wrap with a mask */

/*
 * Protects the ring (tx_head, tx_tail, tx_ring), ier, tx_running and
 * tx_kicked. The interrupt takes it, so everyone else takes it with
 * interrupts off.
 */
static spinlock_t tx_lock = SPINLOCK_INIT("serial tx");
static uint32_t tx_head, tx_tail;       /* free-running; head - tail bytes wait */
static char tx_ring[TX_RING_SIZE];
static uint8_t ier;                     /* what IER holds: we change THRI, keep RX */
static bool tx_running;                 /* bytes are on their way: THRI is on, or the thread has work */
static bool tx_kicked;                  /* the thread should look at the UART now */
static bool irq_mode;                   /* set once, at boot: before it, every write polls */
static struct wait_queue tx_wait;       /* writers waiting for SERIAL_TX_WAKEUP bytes of room */
static struct wait_queue tx_kick;       /* the thread, waiting for tx_kicked */
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
 * Start the transmitter if it is idle. Turning THRI on while the FIFO is
 * empty makes the UART interrupt at once, and the interrupt wakes the
 * thread: the caller may hold any lock (the console's, with interrupts
 * off), so it does not call wake_up() itself.
 */
static void start_locked(void)
{
	if (tx_running || !ring_used())
		return;
	tx_running = true;
	set_ier_locked(ier | IER_THRI);
}

/* Wake the thread; tx_lock is held. The caller calls wake_up(&tx_kick) after letting it go. */
static void kick_locked(void)
{
	set_ier_locked(ier & ~IER_THRI);        /* no more interrupts until the thread asks */
	tx_kicked = true;
}

/*
 * IRQ4's transmit half: the FIFO has emptied (or a byte arrived: the line
 * is shared, and this is cheap). The thread moves the bytes.
 */
void serial_tx_interrupt(void)
{
	bool wake;

	if (!irq_mode)
		return;
	spin_lock(&tx_lock);            /* in the interrupt: interrupts are off already */
	wake = tx_running;
	if (wake)
		kick_locked();
	spin_unlock(&tx_lock);
	if (wake)
		wake_up(&tx_kick);
}

/*
 * The thread: a FIFO's worth of bytes each time round, the lock let go in
 * between (so interrupts, and a preemption at the tick, come in between).
 * It sleeps when the ring is empty, or when the UART is still busy: then
 * with THRI on, so the UART's interrupt wakes it when the FIFO has emptied.
 */
static int serial_tx_thread(void *unused)
{
	uint32_t flags;
	bool room;

	for (;;) {
		wait_event(tx_kick, READ_ONCE(tx_kicked));
		spin_lock_irqsave(&tx_lock, flags);
		tx_kicked = false;
		pump_locked();
		if (!ring_used())
			tx_running = false;
		else if (inb(COM1 + REG_LSR) & LSR_THR_EMPTY)
			tx_kicked = true;       /* it took them all at once (an emulated UART): go on */
		else
			set_ier_locked(ier | IER_THRI);
		room = TX_RING_SIZE - ring_used() >= SERIAL_TX_WAKEUP;
		spin_unlock_irqrestore(&tx_lock, flags);
		if (room)
			wake_up(&tx_wait);
	}
	return 0;
}

/*
 * The backup for a lost interrupt, from the timer on CPU 0 (as Linux's
 * 8250 has one for UARTs whose THRE interrupt is unreliable): if bytes
 * wait and none went out since the last tick, wake the thread.
 */
void serial_tx_watchdog(void)
{
	uint32_t flags;
	bool wake = false;

	if (!irq_mode || !READ_ONCE(tx_running))
		return;
	spin_lock_irqsave(&tx_lock, flags);
	if (tx_running && tx_tail == last_tail) {
		kick_locked();
		wake = true;
	}
	last_tail = tx_tail;
	spin_unlock_irqrestore(&tx_lock, flags);
	if (wake)
		wake_up(&tx_kick);
}

void serial_tx_start_irq_mode(void)
{
	wait_queue_init(&tx_wait, "serial tx");
	wait_queue_init(&tx_kick, "serial tx thread");
	ier = IER_RX;
	if (!kthread_create(serial_tx_thread, NULL, "serial tx")) {
		printk("serial: cannot start the transmit thread; output stays polled\n");
		return;
	}
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
