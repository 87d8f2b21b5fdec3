/*
 * top [-b] [-H] [-d SECONDS] [-n N]: where the CPUs' time goes, and which tasks use it.
 *
 * Every screen is the difference between two looks at /proc (sample.c) taken SECONDS apart
 * (default 1), so even the first one, and `top -b -n 1`, shows real percentages, never the
 * averages since boot. Interactive, it redraws the terminal until `q`; the terminal is put in
 * non-canonical mode without echo (a key counts at once) and put back as it was on the way out,
 * on a signal too. -b (batch) prints the screens one after the other with no terminal control,
 * for scripts and tests; -n N stops after N screens; -H lists threads instead of processes.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "top.h"

#define CLEAR_SCREEN "\033[H\033[J"
#define HEADER_LINES 8                  /* header, memory, blank, CPU titles, all, blank, task titles, prompt */

static struct termios saved_termios;
static int terminal_changed;

static void restore_terminal(void)
{
	if (terminal_changed)
		tcsetattr(0, TCSANOW, &saved_termios);
	terminal_changed = 0;
}

static void quit_on_signal(int sig)
{
	restore_terminal();
	_exit(128 + sig);
}

/* Keys without Enter and without echo; ^C still stops top (and puts the terminal back). */
static int keys_at_once(void)
{
	struct termios t;

	if (tcgetattr(0, &saved_termios) < 0)
		return -1;
	t = saved_termios;
	t.c_lflag &= ~(ICANON | ECHO);
	if (tcsetattr(0, TCSANOW, &t) < 0)
		return -1;
	terminal_changed = 1;
	signal(SIGINT, quit_on_signal);
	signal(SIGTERM, quit_on_signal);
	signal(SIGHUP, quit_on_signal);
	return 0;
}

/*
 * Wait up to seconds for a key: the key, or -1 when the time ran out. The terminal's own timer
 * does the waiting: VMIN 0 and VTIME in tenths of a second (at most 25.5 s a read).
 */
static int wait_key(double seconds)
{
	double deadline = top_now() + seconds;
	struct termios t;
	char c;

	tcgetattr(0, &t);
	for (;;) {
		double left = deadline - top_now();
		int tenths = (int)(left * 10 + 0.999);

		if (left <= 0)
			return -1;
		t.c_cc[VMIN] = 0;
		t.c_cc[VTIME] = tenths > 255 ? 255 : tenths < 1 ? 1 : tenths;
		tcsetattr(0, TCSANOW, &t);
		if (read(0, &c, 1) == 1)
			return (unsigned char)c;
	}
}

static void sleep_seconds(double seconds)
{
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };

	nanosleep(&ts, NULL);
}

/* How many task lines fit on the terminal. */
static int task_rows(void)
{
	struct winsize ws;

	if (ioctl(1, TIOCGWINSZ, &ws) < 0 || ws.ws_row == 0)
		ws.ws_row = 24;
	return ws.ws_row > HEADER_LINES + 1 ? ws.ws_row - HEADER_LINES - 1 : 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: top [-b] [-H] [-d SECONDS] [-n N]\n");
	exit(2);
}

/* What the command line asks for. */
struct options {
	bool batch;
	double delay;                           /* seconds between the two looks of a screen */
	int screens;                            /* -1: until q */
	struct view view;
};

static void parse_options(int argc, char **argv, struct options *o)
{
	char *end;
	int opt;

	o->batch = false;
	o->delay = 1;
	o->screens = -1;
	o->view.threads = false;
	o->view.max_tasks = 0;
	while ((opt = getopt(argc, argv, "bHd:n:")) != -1) {
		switch (opt) {
		case 'b':
			o->batch = true;
			break;
		case 'H':
			o->view.threads = true;
			break;
		case 'd':
			o->delay = strtod(optarg, &end);
			if (*end || end == optarg || o->delay < 0.1 || o->delay > 3600)
				usage();
			break;
		case 'n':
			o->screens = strtol(optarg, &end, 10);
			if (*end || end == optarg || o->screens < 1)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
}

/*
 * Let one delay pass: asleep in batch mode, else waiting for a key. False if the key was q.
 * H switches between processes and threads, and any key shows the next screen at once.
 */
static bool wait_for_next_screen(struct options *o, struct sample *before)
{
	int key;

	if (o->batch) {
		sleep_seconds(o->delay);
		return true;
	}
	key = wait_key(o->delay);
	if (key == 'q' || key == 'Q')
		return false;
	if (key == 'H') {
		o->view.threads = !o->view.threads;
		sample_take(before, o->view.threads);   /* the other kind of line needs its own "before" */
		sleep_seconds(0.2);
	}
	return true;
}

int main(int argc, char **argv)
{
	static struct sample samples[2];
	struct sample *before = &samples[0], *after = &samples[1], *swap;
	struct options o;

	parse_options(argc, argv, &o);
	/* Not on a terminal: there is nothing to redraw or read keys from, so print as -b does. */
	if (!o.batch && keys_at_once() < 0)
		o.batch = true;
	if (sample_take(before, o.view.threads) < 0) {
		restore_terminal();
		perror("top: /proc/stat");
		return 1;
	}
	for (int shown = 0; o.screens < 0 || shown < o.screens; shown++) {
		if (!wait_for_next_screen(&o, before))
			break;
		sample_take(after, o.view.threads);
		if (!o.batch) {
			o.view.max_tasks = task_rows();
			printf(CLEAR_SCREEN);
		}
		show(before, after, &o.view);
		if (o.batch && (o.screens < 0 || shown + 1 < o.screens))
			printf("\n");              /* between two screens */
		if (!o.batch)
			printf("(q quits, H threads)");
		fflush(stdout);
		swap = before;
		before = after;
		after = swap;
	}
	if (!o.batch)
		printf("\n");
	restore_terminal();
	return 0;
}
