/* ls [-la] [PATH...]: list directories (sorted), or name files; -l the long form, -a dot files too. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int long_form, all;

static void mode_string(unsigned mode, char *s)
{
	static const char types[] = "?pc?d?b?-?l?s???";
	const char *rwx = "rwxrwxrwx";
	int i;

	s[0] = types[(mode & S_IFMT) >> 12];
	for (i = 0; i < 9; i++)
		s[i + 1] = (mode & (0400 >> i)) ? rwx[i] : '-';
	s[10] = '\0';
}

static void show(const char *path, const char *name)
{
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct stat st;
	char mode[11], target[256];
	struct tm tm;
	time_t t;
	ssize_t n;

	if (!long_form) {
		printf("%s\n", name);
		return;
	}
	if (lstat(path, &st) < 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return;
	}
	mode_string(st.st_mode, mode);
	t = (time_t)st.st_mtime;
	gmtime_r(&t, &tm);
	target[0] = '\0';
	if (S_ISLNK(st.st_mode) && (n = readlink(path, target + 4, sizeof(target) - 5)) >= 0) {
		memcpy(target, " -> ", 4);
		target[n + 4] = '\0';
	}
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		printf("%s %2u %u %u %4u, %4u %s %2d %02d:%02d %s%s\n", mode, st.st_nlink, st.st_uid,
		       st.st_gid, (unsigned)SMPIX_MAJOR(st.st_rdev), (unsigned)SMPIX_MINOR(st.st_rdev),
		       months[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, name, target);
	else
		printf("%s %2u %u %u %10llu %s %2d %02d:%02d %s%s\n", mode, st.st_nlink, st.st_uid,
		       st.st_gid, (unsigned long long)st.st_size, months[tm.tm_mon], tm.tm_mday,
		       tm.tm_hour, tm.tm_min, name, target);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char **)a, *(char **)b); }

static int list_dir(const char *dir)
{
	struct dirent *e;
	char **names = NULL, path[512];
	int n = 0, i;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "ls: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' && !all)
			continue;
		names = realloc(names, (n + 1) * sizeof(char *));
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(char *), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		show(path, names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
}

int main(int argc, char **argv)
{
	struct stat st;
	int c, i, status = 0;

	while ((c = getopt(argc, argv, "la")) != -1) {
		if (c == 'l')
			long_form = 1;
		else if (c == 'a')
			all = 1;
		else {
			fprintf(stderr, "usage: ls [-la] [PATH...]\n");
			return 2;
		}
	}
	if (optind == argc)
		return list_dir(".");
	for (i = optind; i < argc; i++) {
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "ls: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (argc - optind > 1)
				printf("%s:\n", argv[i]);
			status |= list_dir(argv[i]);
		} else {
			show(argv[i], argv[i]);
		}
	}
	return status;
}
