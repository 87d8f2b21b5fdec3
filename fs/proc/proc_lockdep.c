/*
 * /proc/lockdep: what the lock-order checker knows (kernel/locking/lockdep.c,
 * docs/locking.md). First how full its tables are, then one line per class,
 * as Linux's /proc/lockdep: how many classes it has been seen to come before
 * (FD, forward dependencies), its usage character, its name and its place.
 */
#include "fs/proc/proc_files.h"

#include "fs/proc/procbuf.h"
#include "kernel/locking/lockdep.h"

void proc_show_lockdep(struct procbuf *pb, void *arg)
{
	struct lockdep_counts n;
	struct lock_class *c;
	int sub, out;
	char usage;

	lockdep_get_counts(&n);
	procbuf_printf(pb, "lockdep: %s\n", lockdep_on ? "on" : lockdep_reports() ? "off after a report" :
		       n.classes ? "off" : "off (boot with lockdep=1)");
	procbuf_printf(pb, "lock classes: %d of %d\ndependencies: %d of %d\n", n.classes, n.classes_max, n.edges,
		       n.edges_max);
	procbuf_printf(pb, "irq-safe classes: %d\nirq-unsafe classes: %d\nreports: %d\n", n.irq_safe, n.irq_unsafe,
		       lockdep_reports());
	for (int i = 0; (c = lockdep_class_at(i, &sub, &out, &usage)) != NULL; i++)
		procbuf_printf(pb, "FD: %3d {%c}: %s%s (%s:%d)\n", out, usage, c->name ? c->name : "?",
			       sub ? "/1" : "", c->file ? c->file : "?", c->line);
}
