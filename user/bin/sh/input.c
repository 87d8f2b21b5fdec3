/*
 * Where commands come from. A file is read a block at a time; the terminal
 * in canonical mode gives one line per read(), so a command the shell runs
 * can read the next line itself. An interactive input prints the prompt
 * just before it reads a line, so the prompt appears only when the shell
 * is really waiting.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "str.h"
#include "vars.h"

void input_from_fd(struct input *in, int fd, int prompt)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->line = 1;
	in->prompt = prompt;
}

void input_from_string(struct input *in, const char *s, int line)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->str = s;
	in->line = line;
}

static void show_prompt(struct input *in)
{
	const char *p = var_get(in->prompt == 1 ? "PS1" : "PS2");

	if (!p)
		p = in->prompt == 1 ? "$ " : "> ";
	write(2, p, strlen(p));
	in->prompt = 2;         /* until the parser starts the next command */
}

/* Fill buf from the fd; 0 at the end of the input. */
static int refill(struct input *in)
{
	int n;

	if (in->fd < 0 || in->eof)
		return 0;
	if (in->prompt)
		show_prompt(in);
	do
		n = read(in->fd, in->buf, sizeof(in->buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		in->eof = 1;
		return 0;
	}
	in->pos = 0;
	in->len = n;
	return 1;
}

int input_getc(struct input *in)
{
	int c;

	if (in->nunget > 0) {
		c = in->unget[--in->nunget];
	} else if (in->fd < 0) {
		if (!*in->str)
			return -1;
		c = (unsigned char)*in->str++;
	} else {
		if (in->pos == in->len && !refill(in))
			return -1;
		c = (unsigned char)in->buf[in->pos++];
	}
	if (c == '\n')
		in->line++;
	if (in->record)
		str_add(in->record, (char)c);
	return c;
}

void input_ungetc(struct input *in, int c)
{
	if (c < 0)
		return;
	if (c == '\n')
		in->line--;
	if (in->record && in->record->len > 0)
		in->record->s[--in->record->len] = '\0';       /* it is always the character just taken */
	in->unget[in->nunget++] = c;
}
