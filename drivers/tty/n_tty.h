/*
 * N_TTY, the line discipline: what happens to each typed character between
 * the serial port and a read() (editing, echo, ^C), and to each written
 * character on its way out (\n to \r\n). Pure logic: the tty (drivers/tty/tty.c)
 * holds its lock around every call, sleeps readers, sends the signals.
 */
#ifndef DRIVERS_N_TTY_H
#define DRIVERS_N_TTY_H

#include "kernel/types.h"
#include "kernel/uapi/termios.h"

#define N_TTY_BUF_SIZE 4096     /* input held at most, as Linux's; a power of two */

/* Where echoed and written characters go, after output processing: the device. */
typedef void (*n_tty_out_t)(void *ctx, char c);

struct n_tty {
	struct termios termios;
	/*
	 * Input, as free-running positions into buf: [read_tail, canon_head)
	 * is ready for read(); [canon_head, head) is the line still being
	 * edited (empty in raw mode). A set bit in line_end marks the byte
	 * that ends a line (newline, EOL, or EOF, which read() never copies).
	 */
	char buf[N_TTY_BUF_SIZE];
	uint8_t line_end[N_TTY_BUF_SIZE / 8];
	uint8_t is_eof[N_TTY_BUF_SIZE / 8];
	uint32_t read_tail, canon_head, head;
	bool literal_next;              /* the previous character was VLNEXT (^V) */
	n_tty_out_t out;
	void *out_ctx;
};

/* Linux's defaults (cooked, echo, ^C ^\ ^? ^U ^D ...); output to out(ctx, c). */
void n_tty_init(struct n_tty *ld, n_tty_out_t out, void *ctx);
/* A new termios; switching out of canonical mode makes the edited line readable. */
void n_tty_set_termios(struct n_tty *ld, const struct termios *t);
/*
 * One character from the device. Returns the signal it asks for (SIGINT,
 * SIGQUIT, SIGTSTP) or 0; the caller sends it to the foreground group.
 */
int n_tty_receive(struct n_tty *ld, char c);
/* Bytes a read() may take now: whole lines in canonical mode, else everything typed. */
uint32_t n_tty_readable(const struct n_tty *ld);
/*
 * Copy up to n readable bytes into dst. Canonical mode stops after one
 * line, and an EOF mark ends a read without being copied (so a ^D on an
 * empty line reads as 0 bytes). Returns the bytes copied, or -EAGAIN when
 * nothing is readable.
 */
int n_tty_read(struct n_tty *ld, char *dst, uint32_t n);
/* Discard all input (TCIFLUSH, TCSETSF, a signal character). */
void n_tty_flush_input(struct n_tty *ld);
/* Write one character through output processing (OPOST, ONLCR, OCRNL, OLCUC). */
void n_tty_write_char(struct n_tty *ld, char c);

#endif
