/* Basic types for the freestanding kernel: the compiler's own headers, nothing from libc. */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t uintptr32_t;
typedef uint32_t physaddr_t;
#ifndef HOST_TEST            /* the host C library has its own */
typedef int32_t ssize_t;
#else
#include <sys/types.h>
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~((a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((a) - 1))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#define __noreturn __attribute__((noreturn))
#define __packed __attribute__((packed))
#define __aligned(n) __attribute__((aligned(n)))
/*
 * Data that one CPU writes often and others read (or write) must not share
 * a cache line with anything else: a write by one CPU takes the line from
 * every other CPU's cache ("false sharing"). 64 bytes on every x86 since
 * the Pentium 4.
 */
#define CACHE_LINE 64
#define __cacheline_aligned __aligned(CACHE_LINE)
/*
 * The switches every lock and system call path reads and almost nothing
 * writes (lockdep on?, lock_stat on?, tracing on?, the era): together in one
 * page at the start of .data (boot/kernel.ld), away from written data, as
 * Linux's __read_mostly: a cache line that is only read stays shared in
 * every CPU's cache instead of bouncing with the writes of its neighbours.
 * One page rather than one line each: every page a hot path touches costs a
 * TLB entry (kernel/x86/emulator.h says why that weighs more under QEMU).
 */
#define __read_mostly __attribute__((section(".data.read_mostly")))
#define __used __attribute__((used))
#define __unused __attribute__((unused))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif
