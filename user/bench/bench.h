/*
 * What sysbench.c and diskbench.c share: raw int $0x80 calls, the clock, CPU
 * pinning, and the output lines bench_linux.py and bench_disk.py parse. No C
 * library and no smpix header beyond the system call numbers (Linux's), so
 * that the one binary runs on smpix and on Linux alike.
 */
#ifndef USER_BENCH_BENCH_H
#define USER_BENCH_BENCH_H

#include "kernel/uapi/unistd.h"

static inline long sys4(long nr, long a, long b, long c, long d)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
	return r;
}

/* Five arguments: edi is the fifth (mount(2)'s data). */
static inline long sys5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
	return r;
}

#define sys0(nr)          sys4(nr, 0, 0, 0, 0)
#define sys1(nr, a)       sys4(nr, (long)(a), 0, 0, 0)
#define sys2(nr, a, b)    sys4(nr, (long)(a), (long)(b), 0, 0)
#define sys3(nr, a, b, c) sys4(nr, (long)(a), (long)(b), (long)(c), 0)

/* One line of output, written with one write() so that lines of two processes never mix. */
struct line {
	char buf[160];
	unsigned len;
};

extern unsigned cpu_mask, ncpus;        /* the CPUs we may run on (the first 32) */
extern int status;                      /* 1 once anything went wrong */
extern char **environ;

void __attribute__((noreturn)) exit_now(int code);
unsigned long long now_ns(void);
int pin_to(unsigned mask);
unsigned nth_cpu(unsigned k);
int wait_child(int pid);
void line_start(struct line *l, const char *s);
void put_str(struct line *l, const char *s);
void put_u64(struct line *l, unsigned long long v);
void put_end(struct line *l);
void figure(const char *name, int round, unsigned ops, unsigned long long tenths);
void error(const char *what, long result);
const char *getenv(const char *key);
int str_eq(const char *a, const char *b);

/* diskbench.c: `sysbench disk ...`, the disk figures. Its exit status. */
int disk_main(int argc, char **argv);

#endif
