/*
 * Pathname expansion. The pattern is taken one /-separated part at a time:
 * a part without * ? [ is a name to go through as it is; one with them is
 * matched against each entry of the directory reached so far. Names that
 * start with a dot match only a pattern that does too, as in every shell.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glob.h"
#include "pattern.h"

static void expand_from(const char *dir, const char *rest, struct strv *out);

/* dir/name, with no doubled slash after "/" and no "./" for the current directory. */
static char *join_path(const char *dir, const char *name, size_t len)
{
	struct str s = { 0 };

	if (dir) {
		str_adds(&s, dir);
		if (!*dir || dir[strlen(dir) - 1] != '/')
			str_add(&s, '/');
	}
	str_addn(&s, name, len);
	return str_take(&s);
}

/* The next part of the pattern: rest[0..len), then where the part after it starts (NULL: none). */
static const char *next_part(const char *rest, size_t *len)
{
	const char *slash = strchr(rest, '/');

	*len = slash ? (size_t)(slash - rest) : strlen(rest);
	if (!slash)
		return NULL;
	while (*slash == '/')
		slash++;
	return slash;
}

static void match_dir(const char *dir, const char *part, const char *after, struct strv *out)
{
	DIR *d = opendir(dir && *dir ? dir : dir ? "/" : ".");
	struct dirent *e;
	struct stat st;
	char *path;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' && part[0] != '.')
			continue;
		if (!pattern_match(part, e->d_name, strlen(e->d_name)))
			continue;
		path = join_path(dir, e->d_name, strlen(e->d_name));
		if (!after)
			strv_add(out, path);
		else {
			if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
				expand_from(path, after, out);
			free(path);
		}
	}
	closedir(d);
}

static void expand_from(const char *dir, const char *rest, struct strv *out)
{
	size_t len;
	const char *after = next_part(rest, &len);
	char *part = xstrndup(rest, len), *plain, *path;
	struct stat st;

	if (pattern_has_magic(part)) {
		match_dir(dir, part, after, out);
	} else {
		plain = pattern_unescape(part);
		path = join_path(dir, plain, strlen(plain));
		if (!after) {
			if (lstat(path, &st) == 0)
				strv_add(out, path);
			else
				free(path);
		} else {
			expand_from(path, after, out);
			free(path);
		}
		free(plain);
	}
	free(part);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int glob_expand(const char *pattern, struct strv *out)
{
	int first = out->n;

	if (pattern[0] == '/') {
		while (*pattern == '/')
			pattern++;
		expand_from("", pattern, out);
	} else {
		expand_from(NULL, pattern, out);
	}
	if (out->n > first)
		qsort(out->v + first, out->n - first, sizeof(char *), by_name);
	return out->n - first;
}
