// TESTS: drivers/tty/n_tty.c kernel/lib/string.c
/*
 * The line discipline: canonical editing, echo, EOF, signals, raw mode, output
 * processing, limits. The echo strings and reads expected here were checked
 * against a Linux pty (python3 pty.openpty(), same key sequences, default termios).
 */
#include "hosttest.h"

#include "drivers/tty/n_tty.h"
#include "kernel/uapi/errno.h"
#include "kernel/uapi/signal.h"

static char echoed[16384];
static size_t nechoed;

static void out(void *ctx, char c)
{
	(void)ctx;
	if (nechoed < sizeof(echoed) - 1)
		echoed[nechoed++] = c;
	echoed[nechoed] = '\0';
}

static struct n_tty ld;

static void reset(void)
{
	n_tty_init(&ld, out, NULL);
	nechoed = 0;
	echoed[0] = '\0';
}

static int type(const char *s)
{
	int sig = 0;

	for (; *s; s++) {
		int r = n_tty_receive(&ld, *s);
		if (r)
			sig = r;
	}
	return sig;
}

/* Read once into a NUL-terminated string; returns what n_tty_read returned. */
static int read_str(char *buf, uint32_t n)
{
	int r = n_tty_read(&ld, buf, n);

	buf[r > 0 ? r : 0] = '\0';
	return r;
}

static void canonical(void)
{
	char buf[64];

	reset();
	type("ls");
	CHECK(n_tty_readable(&ld) == 0);                /* no whole line yet */
	CHECK(n_tty_read(&ld, buf, sizeof(buf)) == -EAGAIN);
	type("\r");                                     /* Enter sends CR; ICRNL makes it NL */
	CHECK(n_tty_readable(&ld) == 3);
	CHECK(read_str(buf, sizeof(buf)) == 3);
	CHECK_STR(buf, "ls\n");
	CHECK_STR(echoed, "ls\r\n");                    /* ONLCR on the echo */

	/* One read, one line: two typed lines take two reads. */
	reset();
	type("ab\ncd\n");
	CHECK(read_str(buf, sizeof(buf)) == 3);
	CHECK_STR(buf, "ab\n");
	CHECK(read_str(buf, sizeof(buf)) == 3);
	CHECK_STR(buf, "cd\n");

	/* A short read leaves the rest of the line for the next one. */
	reset();
	type("hello\n");
	CHECK(read_str(buf, 2) == 2);
	CHECK_STR(buf, "he");
	CHECK(read_str(buf, sizeof(buf)) == 4);
	CHECK_STR(buf, "llo\n");
}

static void editing(void)
{
	char buf[64];

	reset();
	type("cax\x7f" "t\n");                          /* DEL erases the x */
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "cat\n");
	CHECK_STR(echoed, "cax\b \bt\r\n");

	reset();
	type("\x7f\x7f" "a\n");                         /* erase at line start does nothing */
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "a\n");
	CHECK_STR(echoed, "a\r\n");

	reset();
	type("rm -rf /\x15" "ls\n");                    /* ^U kills the line */
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "ls\n");

	reset();
	type("echo one two  \x17" "three\n");           /* ^W erases "two  " */
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "echo one three\n");

	/* A control character echoes as ^X and rubs out as two columns. */
	reset();
	type("a\x01\x7f\n");
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "a\n");
	CHECK_STR(echoed, "a^A\b \b\b \b\r\n");

	/* ^V makes the next character literal, even ^C. */
	reset();
	CHECK(type("\x16\x03\n") == 0);
	read_str(buf, sizeof(buf));
	CHECK(buf[0] == 3 && buf[1] == '\n');

	/* Erase never reaches back into a line already ended. */
	reset();
	type("one\n\x7f\x7f" "x\n");
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "one\n");
	read_str(buf, sizeof(buf));
	CHECK_STR(buf, "x\n");
}

static void end_of_file(void)
{
	char buf[64];

	reset();
	type("\x04");                                   /* ^D on an empty line: read returns 0 */
	CHECK(n_tty_readable(&ld) == 1);
	CHECK(n_tty_read(&ld, buf, sizeof(buf)) == 0);
	CHECK(n_tty_readable(&ld) == 0);
	CHECK_STR(echoed, "");                          /* ^D is not echoed */

	reset();
	type("abc\x04");                                /* ^D after text: the text, no newline */
	CHECK(read_str(buf, sizeof(buf)) == 3);
	CHECK_STR(buf, "abc");
	CHECK(n_tty_read(&ld, buf, sizeof(buf)) == -EAGAIN);
}

static void signals(void)
{
	char buf[64];

	reset();
	CHECK(type("sleep 10\n") == 0);
	CHECK(type("part\x03") == SIGINT);              /* ^C: SIGINT, input flushed, ^C echoed */
	CHECK(n_tty_readable(&ld) == 0);
	CHECK(n_tty_read(&ld, buf, sizeof(buf)) == -EAGAIN);
	CHECK(strstr(echoed, "part^C") != NULL);
	CHECK(type("\x1c") == SIGQUIT);
	CHECK(type("\x1a") == SIGTSTP);

	/* Without ISIG, ^C is an ordinary character. */
	reset();
	{
		struct termios t = ld.termios;
		t.c_lflag &= ~(tcflag_t)ISIG;
		n_tty_set_termios(&ld, &t);
	}
	CHECK(type("\x03\n") == 0);
	CHECK(read_str(buf, sizeof(buf)) == 2 && buf[0] == 3);

	/* NOFLSH keeps the input. */
	reset();
	{
		struct termios t = ld.termios;
		t.c_lflag |= NOFLSH;
		n_tty_set_termios(&ld, &t);
	}
	type("keep\n\x03");
	CHECK(read_str(buf, sizeof(buf)) == 5);
}

static void raw_mode(void)
{
	char buf[64];
	struct termios t;

	reset();
	type("half");
	t = ld.termios;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	n_tty_set_termios(&ld, &t);
	CHECK(n_tty_readable(&ld) == 4);                /* the edited line became input */
	nechoed = 0;
	echoed[0] = 0;
	type("x\x7f\x04\r");                            /* no editing, no EOF, no echo; ICRNL still on */
	CHECK(n_tty_readable(&ld) == 8);
	CHECK(read_str(buf, 3) == 3);
	CHECK_STR(buf, "hal");
	CHECK(n_tty_read(&ld, buf, sizeof(buf)) == 5);
	CHECK(memcmp(buf, "fx\x7f\x04\n", 5) == 0);
	CHECK_STR(echoed, "");

	/* Back to canonical: only whole lines count again. */
	t.c_lflag |= ICANON;
	n_tty_set_termios(&ld, &t);
	type("ab");
	CHECK(n_tty_readable(&ld) == 0);
}

static void output(void)
{
	struct termios t;

	reset();
	n_tty_write_char(&ld, 'a');
	n_tty_write_char(&ld, '\n');
	CHECK_STR(echoed, "a\r\n");
	reset();
	t = ld.termios;
	t.c_oflag &= ~(tcflag_t)OPOST;
	n_tty_set_termios(&ld, &t);
	n_tty_write_char(&ld, '\n');
	CHECK_STR(echoed, "\n");
	reset();
	t = ld.termios;
	t.c_oflag |= OLCUC;
	n_tty_set_termios(&ld, &t);
	n_tty_write_char(&ld, 'q');
	CHECK_STR(echoed, "Q");
}

static void limits(void)
{
	static char big[N_TTY_BUF_SIZE * 2];
	char buf[64];
	int r;

	/* A line longer than the buffer: the excess is dropped, the line can still end. */
	reset();
	for (int i = 0; i < N_TTY_BUF_SIZE + 100; i++)
		n_tty_receive(&ld, 'x');
	n_tty_receive(&ld, '\n');
	CHECK(n_tty_readable(&ld) == N_TTY_BUF_SIZE);
	r = n_tty_read(&ld, big, sizeof(big));
	CHECK(r == N_TTY_BUF_SIZE);
	CHECK(big[r - 1] == '\n' && big[r - 2] == 'x');

	/* Raw mode fills the buffer completely, then drops. */
	reset();
	{
		struct termios t = ld.termios;
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		n_tty_set_termios(&ld, &t);
	}
	for (int i = 0; i < N_TTY_BUF_SIZE + 5; i++)
		n_tty_receive(&ld, (char)('a' + i % 26));
	CHECK(n_tty_readable(&ld) == N_TTY_BUF_SIZE);
	/* The positions wrap around the ring many times without losing order. */
	for (int round = 0; round < 3 * N_TTY_BUF_SIZE / 60; round++) {
		CHECK(n_tty_read(&ld, buf, 60) == 60);
		for (int i = 0; i < 60; i++)
			n_tty_receive(&ld, 'k');
	}
	n_tty_flush_input(&ld);
	CHECK(n_tty_readable(&ld) == 0);
	type("zz");
	CHECK(n_tty_read(&ld, buf, sizeof(buf)) == 2 && buf[0] == 'z');
}

int main(void)
{
	canonical();
	editing();
	end_of_file();
	signals();
	raw_mode();
	output();
	limits();
	return hosttest_finish("n_tty");
}
