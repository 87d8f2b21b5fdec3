/* A task's state as /proc prints it: Linux's one letter, for /proc/PID/stat and /proc/trace alike. */
#ifndef FS_PROC_TASK_STATE_H
#define FS_PROC_TASK_STATE_H

#include "kernel/sched/task.h"

/*
 * R S Z X, as Linux's task_state_array. A task that has never run yet
 * (TASK_NEW) is R, as Linux shows one: it is about to be queued, not waiting
 * for anything. '?' only for a number that is no state at all (a trace
 * event's corrupt argument).
 */
static inline char task_state_letter(enum task_state state)
{
	switch (state) {
	case TASK_NEW:
	case TASK_RUNNING:
		return 'R';
	case TASK_SLEEPING:
		return 'S';
	case TASK_ZOMBIE:
		return 'Z';
	case TASK_DEAD:
		return 'X';
	default:
		return '?';
	}
}

#endif
