/* stty [-a | raw | sane | [-]FLAG...]: show or change the terminal's settings (TCGETS/TCSETS on fd 0). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>

struct flag {
	const char *name;
	int field;                      /* 0 iflag, 1 oflag, 2 cflag, 3 lflag */
	tcflag_t bit;
};

static const struct flag flags[] = {
	{ "icrnl", 0, ICRNL }, { "inlcr", 0, INLCR }, { "igncr", 0, IGNCR }, { "ixon", 0, IXON },
	{ "istrip", 0, ISTRIP }, { "brkint", 0, BRKINT },
	{ "opost", 1, OPOST }, { "onlcr", 1, ONLCR },
	{ "cread", 2, CREAD }, { "clocal", 2, CLOCAL }, { "hupcl", 2, HUPCL },
	{ "isig", 3, ISIG }, { "icanon", 3, ICANON }, { "echo", 3, ECHO }, { "echoe", 3, ECHOE },
	{ "echok", 3, ECHOK }, { "echonl", 3, ECHONL }, { "echoctl", 3, ECHOCTL },
	{ "echoke", 3, ECHOKE }, { "iexten", 3, IEXTEN }, { "tostop", 3, TOSTOP },
};
#define NFLAGS (int)(sizeof(flags) / sizeof(flags[0]))

static tcflag_t *field(struct termios *t, int f)
{
	tcflag_t *fields[] = { &t->c_iflag, &t->c_oflag, &t->c_cflag, &t->c_lflag };

	return fields[f];
}

static void show_cc(const char *name, cc_t c)
{
	if (c == 0)
		printf("%s = <undef>; ", name);
	else if (c < 32)
		printf("%s = ^%c; ", name, c + '@');
	else if (c == 127)
		printf("%s = ^?; ", name);
	else
		printf("%s = %c; ", name, c);
}

static void show(struct termios *t, int all)
{
	int i;

	show_cc("intr", t->c_cc[VINTR]);
	show_cc("quit", t->c_cc[VQUIT]);
	show_cc("erase", t->c_cc[VERASE]);
	show_cc("kill", t->c_cc[VKILL]);
	show_cc("eof", t->c_cc[VEOF]);
	if (all)
		printf("min = %u; time = %u;", t->c_cc[VMIN], t->c_cc[VTIME]);
	printf("\n");
	for (i = 0; i < NFLAGS; i++) {
		int on = (*field(t, flags[i].field) & flags[i].bit) != 0;

		if (all || flags[i].field == 3)
			printf("%s%s%s", on ? "" : "-", flags[i].name, i == NFLAGS - 1 ? "\n" : " ");
	}
}

/* What "stty sane" restores: cooked input, echo, signals from ^C and ^\. */
static void sane(struct termios *t)
{
	t->c_iflag = (t->c_iflag & ~(INLCR | IGNCR | ISTRIP)) | ICRNL | BRKINT;
	t->c_oflag |= OPOST | ONLCR;
	t->c_cflag |= CREAD;
	t->c_lflag |= ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
	t->c_cc[VINTR] = 3;
	t->c_cc[VQUIT] = 28;
	t->c_cc[VERASE] = 127;
	t->c_cc[VKILL] = 21;
	t->c_cc[VEOF] = 4;
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

int main(int argc, char **argv)
{
	struct termios t;
	int i, j;

	if (tcgetattr(0, &t) < 0) {
		fprintf(stderr, "stty: standard input: %s\n", strerror(errno));
		return 1;
	}
	if (argc == 1 || (argc == 2 && strcmp(argv[1], "-a") == 0)) {
		show(&t, argc == 2);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		const char *name = argv[i] + (argv[i][0] == '-');

		if (strcmp(argv[i], "raw") == 0) {
			cfmakeraw(&t);
			continue;
		}
		if (strcmp(argv[i], "sane") == 0 || strcmp(argv[i], "cooked") == 0) {
			sane(&t);
			continue;
		}
		for (j = 0; j < NFLAGS; j++)
			if (strcmp(name, flags[j].name) == 0)
				break;
		if (j == NFLAGS) {
			fprintf(stderr, "stty: unknown setting %s\n"
				"usage: stty [-a | raw | sane | [-]FLAG...]\n", argv[i]);
			return 2;
		}
		if (argv[i][0] == '-')
			*field(&t, flags[j].field) &= ~flags[j].bit;
		else
			*field(&t, flags[j].field) |= flags[j].bit;
	}
	if (tcsetattr(0, TCSANOW, &t) < 0) {
		fprintf(stderr, "stty: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
