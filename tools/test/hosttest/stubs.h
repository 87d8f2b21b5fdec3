/* Stand-ins for the kernel services that pure-C kernel files call (locks, panic). */
#ifndef HOSTTEST_STUBS_H
#define HOSTTEST_STUBS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

#include "kernel/locking/spinlock.h"

/* A test can expect a panic: set panic_expected, then setjmp(panic_jump). */
static int panic_expected, panic_seen;
static jmp_buf panic_jump;

void panic(const char *fmt, ...)
{
	va_list ap;

	panic_seen++;
	if (panic_expected)
		longjmp(panic_jump, 1);
	va_start(ap, fmt);
	printf("unexpected panic: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	abort();
}

void spin_lock_at(spinlock_t *l, const char *file, int line) { (void)file; (void)line; l->next++; }
void spin_unlock(spinlock_t *l) { l->owner++; }
void spin_assert_held(const spinlock_t *l, const char *file, int line)
{
	if (l->next == l->owner)
		panic("%s:%d: lock not held", file, line);
}

#endif
