/*
 * read [-r] [NAME...]: one line from stdin, split at $IFS into the NAMEs,
 * the last taking the rest of the line (REPLY if no NAME is given). A
 * backslash quotes the next character, and backslash-newline continues
 * the line, unless -r. Status 1 at the end of the input.
 *
 * The line must be taken from fd 0 without reading past it, because the
 * next command reads on from there: from a regular file, read() a block
 * and lseek back over what follows the newline; from anything else (a
 * pipe, a terminal), one byte at a time.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins.h"
#include "sh.h"
#include "str.h"
#include "vars.h"

/* The next byte of stdin, or -1. */
static int next_byte(char *buf, int *pos, int *len, int seekable)
{
	if (*pos == *len) {
		*len = read(0, buf, seekable ? 256 : 1);
		*pos = 0;
		if (*len <= 0) {
			*len = 0;
			return -1;
		}
	}
	return (unsigned char)buf[(*pos)++];
}

/*
 * The line into *line, with quoted[i] set for each character a backslash
 * protected from splitting. 0 if it ended with a newline, 1 at the end of the input.
 */
static int read_line(int raw, struct str *line, struct str *quoted)
{
	char buf[256];
	int pos = 0, len = 0, c, eof = 1;
	struct stat st;
	int seekable = fstat(0, &st) == 0 && S_ISREG(st.st_mode);

	while ((c = next_byte(buf, &pos, &len, seekable)) >= 0) {
		if (c == '\n') {
			eof = 0;
			break;
		}
		if (c == '\\' && !raw) {
			c = next_byte(buf, &pos, &len, seekable);
			if (c == '\n' || c < 0)
				continue;
			str_add(line, (char)c);
			str_add(quoted, 1);
			continue;
		}
		str_add(line, (char)c);
		str_add(quoted, 0);
	}
	if (seekable && pos < len)
		lseek(0, pos - len, SEEK_CUR);
	str_adds(line, "");
	str_addn(quoted, "", 1);
	return eof;
}

static int is_ifs(const char *ifs, const struct str *line, const struct str *quoted, size_t i)
{
	return i < line->len && !quoted->s[i] && strchr(ifs, line->s[i]);
}

static int is_ifs_space(const char *ifs, const struct str *line, const struct str *quoted, size_t i)
{
	return is_ifs(ifs, line, quoted, i) && strchr(" \t\n", line->s[i]);
}

int builtin_read(int argc, char **argv)
{
	static char *reply[] = { "REPLY", NULL };
	struct str line = { 0 }, quoted = { 0 };
	const char *ifs = var_get("IFS") ? var_get("IFS") : " \t\n";
	char **names = argv + 1, *value;
	size_t i = 0, start, end;
	int raw = 0, status;

	if (names[0] && strcmp(names[0], "-r") == 0) {
		raw = 1;
		names++;
	}
	if (!names[0])
		names = reply;
	status = read_line(raw, &line, &quoted);
	for (; *names; names++) {
		while (is_ifs_space(ifs, &line, &quoted, i))
			i++;
		start = i;
		if (!names[1]) {
			/* The last name: the rest of the line, less trailing IFS white space. */
			end = line.len;
			while (end > start && is_ifs_space(ifs, &line, &quoted, end - 1))
				end--;
			i = line.len;
		} else {
			while (i < line.len && !is_ifs(ifs, &line, &quoted, i))
				i++;
			end = i;
			while (is_ifs_space(ifs, &line, &quoted, i))
				i++;
			if (is_ifs(ifs, &line, &quoted, i))
				i++;            /* one non-blank separator, with the blanks around it */
		}
		value = xstrndup(line.s + start, end - start);
		var_set(*names, value);
		free(value);
	}
	str_free(&line);
	str_free(&quoted);
	return status;
}
