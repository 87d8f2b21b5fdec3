/* An ordinary C program using files through glibc: stdio, dirent, stat, rename, links, cwd. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what)
{
	printf("files: FAIL %s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	char dir[64], line[128], cwd[256], target[64];
	struct stat st;
	struct dirent *d;
	DIR *dp;
	FILE *f;
	int names = 0, fd;
	ssize_t n;

	snprintf(dir, sizeof(dir), "/tmp/compat-files-%d", (int)getpid());
	if (access("/tmp", F_OK) != 0 && mkdir("/tmp", 01777) != 0)
		return fail("mkdir /tmp");
	if (mkdir(dir, 0755) != 0 || chdir(dir) != 0)
		return fail("mkdir/chdir");
	f = fopen("notes.txt", "w");
	if (!f)
		return fail("fopen w");
	for (int i = 1; i <= 3; i++)
		fprintf(f, "line %d of %d\n", i, 3);
	if (fclose(f) != 0)
		return fail("fclose");
	f = fopen("notes.txt", "r");
	if (!f || !fgets(line, sizeof(line), f) || !fgets(line, sizeof(line), f))
		return fail("fopen r / fgets");
	fclose(f);
	printf("files: stdio wrote and read back: %s", line);
	if (stat("notes.txt", &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 3 * 12)
		return fail("stat");
	printf("files: stat says %lld bytes, mode %o\n", (long long)st.st_size, (unsigned)(st.st_mode & 0777));
	if (rename("notes.txt", "renamed.txt") != 0 || link("renamed.txt", "hard") != 0 ||
	    symlink("renamed.txt", "soft") != 0 || mkdir("sub", 0700) != 0)
		return fail("rename/link/symlink/mkdir");
	n = readlink("soft", target, sizeof(target) - 1);
	if (n < 0)
		return fail("readlink");
	target[n] = 0;
	dp = opendir(".");
	if (!dp)
		return fail("opendir");
	while ((d = readdir(dp)) != NULL)
		if (d->d_name[0] != '.')
			names++;
	closedir(dp);
	printf("files: the directory lists %d names; soft -> %s\n", names, target);
	fd = open("hard", O_RDONLY);
	if (fd < 0 || dup2(fd, 10) != 10 || fcntl(10, F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(10, F_GETFD) != FD_CLOEXEC || lseek(10, 5, SEEK_SET) != 5 || read(fd, line, 1) != 1)
		return fail("open/dup2/fcntl/lseek");
	close(10);
	close(fd);
	if (!getcwd(cwd, sizeof(cwd)) || strcmp(cwd, dir) != 0)
		return fail("getcwd");
	if (unlink("soft") != 0 || unlink("hard") != 0 || unlink("renamed.txt") != 0 || rmdir("sub") != 0 ||
	    chdir("/") != 0 || rmdir(dir) != 0)
		return fail("cleanup");
	errno = 0;
	if (stat(dir, &st) == 0 || errno != ENOENT)
		return fail("stat after rmdir");
	printf("files: a dup shares the position: byte 5 is '%c'; all ok\n", line[0]);
	return 0;
}
