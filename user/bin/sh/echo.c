/*
 * echo [-n] [WORD...]: the shell's echo, as dash's: the words joined by
 * blanks and a newline (not with -n), with the XSI escapes \a \b \c \f \n
 * \r \t \v \\ and \0NNN (octal) interpreted; \c ends the output there.
 * (/bin/echo, user/bin/echo.c, takes words as they are, as coreutils' does.)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "str.h"

/* The escape at *p (after the backslash) into out; 0 if it was \c. Moves *p past it. */
static int escape(const char **p, struct str *out)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	const char *e = strchr(from, **p);
	int n, v;

	if (**p == 'c')
		return 0;
	if (**p == '0') {
		for (n = 0, v = 0, (*p)++; n < 3 && **p >= '0' && **p <= '7'; n++, (*p)++)
			v = v * 8 + (**p - '0');
		str_add(out, (char)v);
		return 1;
	}
	if (**p && e) {
		str_add(out, to[e - from]);
		(*p)++;
		return 1;
	}
	str_add(out, '\\');
	return 1;
}

int echo_main(int argc, char **argv)
{
	struct str out = { 0 };
	const char *p;
	int i = 1, newline = 1, ok;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = 0;
		i++;
	}
	for (; i < argc; i++) {
		for (p = argv[i]; *p;) {
			if (*p != '\\') {
				str_add(&out, *p++);
				continue;
			}
			p++;
			if (!escape(&p, &out))
				goto done;
		}
		if (i < argc - 1)
			str_add(&out, ' ');
	}
	if (newline)
		str_add(&out, '\n');
done:
	/* One write, so that echo into a pipe or a file is one piece. */
	ok = out.len == 0 || write(1, out.s, out.len) == (ssize_t)out.len;
	if (!ok)
		fprintf(stderr, "echo: write error: %s\n", strerror(errno));
	str_free(&out);
	return ok ? 0 : 1;
}
