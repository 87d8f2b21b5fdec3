/* <unistd.h>: the POSIX calls, each setting errno and returning -1 on failure (usys.c). */
#ifndef USER_UNISTD_H
#define USER_UNISTD_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/uapi/fcntl.h"          /* F_OK ..., SEEK_SET ... */
#include "kernel/uapi/unistd.h"         /* __NR_* */

typedef int pid_t;
typedef int ssize_t;
typedef long off_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int useconds_t;

#define STDIN_FILENO  0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

extern char **environ;

long syscall(long nr, ...);
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
off_t lseek(int fd, off_t off, int whence);
int dup(int fd);
int dup2(int fd, int to);
int pipe(int fds[2]);
int pipe2(int fds[2], int flags);
int unlink(const char *path);
int link(const char *old, const char *new);
int symlink(const char *target, const char *path);
ssize_t readlink(const char *path, char *buf, size_t size);
int rmdir(const char *path);
int chdir(const char *path);
char *getcwd(char *buf, size_t size);
int access(const char *path, int mode);
int isatty(int fd);
int truncate(const char *path, off_t len);
int ftruncate(int fd, off_t len);

pid_t fork(void);
pid_t vfork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
int execv(const char *path, char *const argv[]);
int execvp(const char *file, char *const argv[]);
void _exit(int status) __attribute__((noreturn));
pid_t getpid(void);
pid_t getppid(void);
pid_t getpgrp(void);
pid_t getpgid(pid_t pid);
int setpgid(pid_t pid, pid_t pgid);
pid_t setsid(void);
pid_t getsid(pid_t pid);
pid_t tcgetpgrp(int fd);
int tcsetpgrp(int fd, pid_t pgrp);
uid_t getuid(void);
uid_t geteuid(void);

void *sbrk(intptr_t delta);
int brk(void *addr);
unsigned sleep(unsigned seconds);
int usleep(useconds_t usec);
unsigned alarm(unsigned seconds);
int pause(void);

extern char *optarg;
extern int optind, opterr, optopt;
int getopt(int argc, char *const argv[], const char *optstring);

#endif
