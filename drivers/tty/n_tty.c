/*
 * N_TTY: the line discipline, in the spirit of Linux's drivers/char/n_tty.c
 * but small. Every function runs under the owning tty's lock.
 *
 * Canonical mode (ICANON) collects a line and lets the user edit it: ERASE
 * (^? or ^H) takes back a character, WERASE (^W) a word, KILL (^U) the
 * line; NL, EOL and EOF (^D) end it. Only ended lines are readable. Raw
 * mode hands over every byte as it comes. In both, ISIG turns INTR (^C),
 * QUIT (^\) and SUSP (^Z) into signals, and ECHO shows what was typed.
 */
#include "drivers/tty/n_tty.h"

#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"

#define MASK (N_TTY_BUF_SIZE - 1)
#define CTRL(c) ((c) & 0x1F)
#define DEL 0x7F

static const struct termios default_termios = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B38400 | CS8 | CREAD | HUPCL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.c_line = 0,
	.c_cc = {
		[VINTR] = CTRL('C'), [VQUIT] = CTRL('\\'), [VERASE] = DEL, [VKILL] = CTRL('U'),
		[VEOF] = CTRL('D'), [VTIME] = 0, [VMIN] = 1, [VSTART] = CTRL('Q'),
		[VSTOP] = CTRL('S'), [VSUSP] = CTRL('Z'), [VREPRINT] = CTRL('R'),
		[VDISCARD] = CTRL('O'), [VWERASE] = CTRL('W'), [VLNEXT] = CTRL('V'),
	},
};

static bool lflag(const struct n_tty *ld, tcflag_t f) { return (ld->termios.c_lflag & f) != 0; }
static bool iflag(const struct n_tty *ld, tcflag_t f) { return (ld->termios.c_iflag & f) != 0; }

static bool test_bit(const uint8_t *map, uint32_t pos) { return map[(pos & MASK) / 8] & (1u << (pos % 8)); }
static void set_bit(uint8_t *map, uint32_t pos, bool on)
{
	if (on)
		map[(pos & MASK) / 8] |= (uint8_t)(1u << (pos % 8));
	else
		map[(pos & MASK) / 8] &= (uint8_t)~(1u << (pos % 8));
}

void n_tty_init(struct n_tty *ld, n_tty_out_t out, void *ctx)
{
	memset(ld, 0, sizeof(*ld));
	ld->termios = default_termios;
	ld->out = out;
	ld->out_ctx = ctx;
}

void n_tty_flush_input(struct n_tty *ld)
{
	ld->read_tail = ld->canon_head = ld->head;
	ld->literal_next = false;
}

void n_tty_set_termios(struct n_tty *ld, const struct termios *t)
{
	bool was_canon = lflag(ld, ICANON);

	ld->termios = *t;
	/* Leaving canonical mode: the half-edited line becomes ordinary input. */
	if (was_canon && !lflag(ld, ICANON))
		ld->canon_head = ld->head;
}

/* ---- output ------------------------------------------------------------- */

void n_tty_write_char(struct n_tty *ld, char c)
{
	tcflag_t o = ld->termios.c_oflag;

	if (o & OPOST) {
		if ((o & OLCUC) && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c == '\n' && (o & ONLCR))
			ld->out(ld->out_ctx, '\r');
		else if (c == '\r' && (o & OCRNL))
			c = '\n';
	}
	ld->out(ld->out_ctx, c);
}

static bool is_ctl(char c)
{
	return ((unsigned char)c < 0x20 && c != '\t' && c != '\n') || c == DEL;
}

/* How wide an echoed character is on the screen: ECHOCTL shows ^C as two. */
static int echo_width(const struct n_tty *ld, char c)
{
	return is_ctl(c) && lflag(ld, ECHOCTL) ? 2 : 1;
}

static void echo_char(struct n_tty *ld, char c)
{
	if (is_ctl(c) && lflag(ld, ECHOCTL)) {
		n_tty_write_char(ld, '^');
		n_tty_write_char(ld, (char)(c ^ 0x40));
	} else {
		n_tty_write_char(ld, c);
	}
}

static void echo_rubout(struct n_tty *ld, char c)
{
	for (int i = echo_width(ld, c); i > 0; i--) {
		n_tty_write_char(ld, '\b');
		n_tty_write_char(ld, ' ');
		n_tty_write_char(ld, '\b');
	}
}

/* ---- input -------------------------------------------------------------- */

static uint32_t used(const struct n_tty *ld) { return ld->head - ld->read_tail; }

static void put_input(struct n_tty *ld, char c, bool ends_line, bool eof)
{
	ld->buf[ld->head & MASK] = c;
	set_bit(ld->line_end, ld->head, ends_line);
	set_bit(ld->is_eof, ld->head, eof);
	ld->head++;
	if (ends_line || !lflag(ld, ICANON))
		ld->canon_head = ld->head;
}

/* Take back the last character of the line being edited; false if there is none. */
static bool erase_one(struct n_tty *ld)
{
	char c;

	if (ld->head == ld->canon_head)
		return false;
	c = ld->buf[--ld->head & MASK];
	if (lflag(ld, ECHO)) {
		if (lflag(ld, ECHOE))
			echo_rubout(ld, c);
		else
			echo_char(ld, ld->termios.c_cc[VERASE]);
	}
	return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

static void erase_word(struct n_tty *ld)
{
	while (ld->head != ld->canon_head && is_space(ld->buf[(ld->head - 1) & MASK]))
		erase_one(ld);
	while (ld->head != ld->canon_head && !is_space(ld->buf[(ld->head - 1) & MASK]))
		erase_one(ld);
}

static void kill_line(struct n_tty *ld)
{
	if (lflag(ld, ECHO) && lflag(ld, ECHOK) && !lflag(ld, ECHOKE)) {
		/* Show the kill character, then start afresh on the next line. */
		ld->head = ld->canon_head;
		echo_char(ld, ld->termios.c_cc[VKILL]);
		n_tty_write_char(ld, '\n');
		return;
	}
	while (erase_one(ld))
		;
}

static void reprint_line(struct n_tty *ld)
{
	echo_char(ld, ld->termios.c_cc[VREPRINT]);
	n_tty_write_char(ld, '\n');
	for (uint32_t p = ld->canon_head; p != ld->head; p++)
		echo_char(ld, ld->buf[p & MASK]);
}

/* ISIG: the character's signal, or 0. */
static int signal_for(const struct n_tty *ld, char c)
{
	const cc_t *cc = ld->termios.c_cc;

	if (!lflag(ld, ISIG) || c == 0)
		return 0;
	if ((cc_t)c == cc[VINTR])
		return SIGINT;
	if ((cc_t)c == cc[VQUIT])
		return SIGQUIT;
	if ((cc_t)c == cc[VSUSP])
		return SIGTSTP;
	return 0;
}

/* The input flags: strip, and the CR/NL translations. Returns false to drop c. */
static bool input_map(const struct n_tty *ld, char *c)
{
	if (iflag(ld, ISTRIP))
		*c &= 0x7F;
	if (*c == '\r') {
		if (iflag(ld, IGNCR))
			return false;
		if (iflag(ld, ICRNL))
			*c = '\n';
	} else if (*c == '\n' && iflag(ld, INLCR)) {
		*c = '\r';
	}
	return true;
}

/* A canonical-mode editing character: handled here, returns true; else false. */
static bool edit_char(struct n_tty *ld, char c)
{
	const cc_t *cc = ld->termios.c_cc;
	cc_t u = (cc_t)c;

	if (u == 0)
		return false;
	if (u == cc[VERASE]) {
		erase_one(ld);
		return true;
	}
	if (u == cc[VKILL]) {
		kill_line(ld);
		return true;
	}
	if (lflag(ld, IEXTEN) && u == cc[VWERASE]) {
		erase_word(ld);
		return true;
	}
	if (lflag(ld, IEXTEN) && u == cc[VREPRINT]) {
		if (lflag(ld, ECHO))
			reprint_line(ld);
		return true;
	}
	return false;
}

/* A character that ends a line in canonical mode: stored and made readable. */
static bool end_of_line(struct n_tty *ld, char c)
{
	const cc_t *cc = ld->termios.c_cc;
	cc_t u = (cc_t)c;

	if (c == '\n' || (u && (u == cc[VEOL] || u == cc[VEOL2]))) {
		if (lflag(ld, ECHO) || (c == '\n' && lflag(ld, ECHONL)))
			echo_char(ld, c);
		put_input(ld, c, true, false);
		return true;
	}
	if (u && u == cc[VEOF]) {
		put_input(ld, c, true, true);   /* never echoed, never read */
		return true;
	}
	return false;
}

int n_tty_receive(struct n_tty *ld, char c)
{
	bool canon = lflag(ld, ICANON);
	int sig;

	if (ld->literal_next) {
		ld->literal_next = false;
	} else {
		if (!input_map(ld, &c))
			return 0;
		if ((sig = signal_for(ld, c)) != 0) {
			if (!lflag(ld, NOFLSH))
				n_tty_flush_input(ld);
			if (lflag(ld, ECHO))
				echo_char(ld, c);
			return sig;
		}
		/* No flow control: output is written synchronously, there is nothing to stop. */
		if (iflag(ld, IXON) && ((cc_t)c == ld->termios.c_cc[VSTART] || (cc_t)c == ld->termios.c_cc[VSTOP]))
			return 0;
		if (lflag(ld, IEXTEN) && (cc_t)c == ld->termios.c_cc[VLNEXT] && c) {
			ld->literal_next = true;
			return 0;
		}
		if (canon && (edit_char(ld, c) || (used(ld) < N_TTY_BUF_SIZE && end_of_line(ld, c))))
			return 0;
	}
	/* Keep one byte free in canonical mode, so a full line can still be ended. */
	if (used(ld) >= N_TTY_BUF_SIZE - (canon ? 1 : 0))
		return 0;
	if (lflag(ld, ECHO))
		echo_char(ld, c);
	put_input(ld, c, false, false);
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

uint32_t n_tty_readable(const struct n_tty *ld)
{
	return ld->canon_head - ld->read_tail;
}

int n_tty_read(struct n_tty *ld, char *dst, uint32_t n)
{
	uint32_t copied = 0;

	if (ld->read_tail == ld->canon_head)
		return -EAGAIN;
	while (copied < n && ld->read_tail != ld->canon_head) {
		uint32_t p = ld->read_tail++;
		bool ends = lflag(ld, ICANON) && test_bit(ld->line_end, p);

		if (ends && test_bit(ld->is_eof, p))
			break;                  /* EOF: consumed, not copied */
		dst[copied++] = ld->buf[p & MASK];
		if (ends)
			break;
	}
	return (int)copied;
}
