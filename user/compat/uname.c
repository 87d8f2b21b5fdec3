/* uname(2) and the ids, through glibc. */
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(void)
{
	struct utsname u;

	if (uname(&u) != 0) {
		perror("uname");
		return 1;
	}
	printf("uname: sysname=%s release=%s machine=%s\n", u.sysname, u.release, u.machine);
	printf("uname: uid=%d euid=%d gid=%d pid>0=%d\n", getuid(), geteuid(), getgid(), getpid() > 0);
	return 0;
}
