/* The environment (getenv, setenv) and the exec functions that search PATH. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char **environ;
static int environ_owned;               /* environ is our malloc'd copy, not the kernel's stack */

static char **find(const char *name)
{
	size_t n = strlen(name);
	char **e;

	for (e = environ; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return e;
	return NULL;
}

char *getenv(const char *name)
{
	char **e = find(name);

	return e ? *e + strlen(name) + 1 : NULL;
}

/* Copy environ to the heap once, so entries can be added and removed. */
static int own_environ(size_t extra)
{
	size_t n = 0, i;
	char **copy;

	while (environ && environ[n])
		n++;
	copy = malloc((n + extra + 1) * sizeof(char *));
	if (!copy)
		return -1;
	for (i = 0; i < n; i++)
		copy[i] = environ[i];
	copy[n] = NULL;
	if (environ_owned)
		free(environ);
	environ = copy;
	environ_owned = 1;
	return 0;
}

int setenv(const char *name, const char *value, int overwrite)
{
	size_t n = strlen(name), i = 0;
	char **e = find(name), *entry;

	if (!*name || strchr(name, '=')) {
		errno = EINVAL;
		return -1;
	}
	if (e && !overwrite)
		return 0;
	entry = malloc(n + strlen(value) + 2);
	if (!entry)
		return -1;
	memcpy(entry, name, n);
	entry[n] = '=';
	strcpy(entry + n + 1, value);
	if (e) {
		*e = entry;                     /* the old string may be the kernel's: never freed */
		return 0;
	}
	if (own_environ(1) < 0) {
		free(entry);
		return -1;
	}
	while (environ[i])
		i++;
	environ[i] = entry;
	environ[i + 1] = NULL;
	return 0;
}

int unsetenv(const char *name)
{
	char **e = find(name);

	if (e)
		do
			e[0] = e[1];
		while (*e++);
	return 0;
}

int execv(const char *path, char *const argv[]) { return execve(path, argv, environ); }

/* A name with a '/' is a path; any other is looked for in each directory of PATH. */
int execvp(const char *file, char *const argv[])
{
	const char *path = getenv("PATH"), *p;
	char buf[256];
	int saw_eacces = 0;

	if (strchr(file, '/'))
		return execve(file, argv, environ);
	if (!path)
		path = "/bin:/sbin";
	for (p = path; ; p = strchr(p, ':') + 1) {
		size_t len = strcspn(p, ":");

		if (len + strlen(file) + 2 <= sizeof(buf)) {
			memcpy(buf, p, len);
			buf[len] = '/';
			strcpy(buf + len + 1, file);
			execve(buf, argv, environ);
			if (errno == EACCES)
				saw_eacces = 1;
		}
		if (!strchr(p, ':'))
			break;
	}
	errno = saw_eacces ? EACCES : ENOENT;
	return -1;
}

/* The calendar from seconds since 1970 (UTC; the civil-from-days algorithm). */
struct tm *gmtime_r(const time_t *t, struct tm *tm)
{
	long days = *t / 86400, secs = *t % 86400, era, doe, yoe, doy, mp, y;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	tm->tm_hour = secs / 3600;
	tm->tm_min = secs / 60 % 60;
	tm->tm_sec = secs % 60;
	tm->tm_wday = (int)((days % 7 + 11) % 7);       /* 1970-01-01 was a Thursday */
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	tm->tm_mday = doy - (153 * mp + 2) / 5 + 1;
	tm->tm_mon = mp < 10 ? mp + 2 : mp - 10;
	tm->tm_year = (int)(y + (tm->tm_mon <= 1)) - 1900;
	tm->tm_yday = 0;
	tm->tm_isdst = 0;
	return tm;
}
