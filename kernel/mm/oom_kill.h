/* The OOM killer: when a valid access finds no free frame, kill the biggest process. */
#ifndef KERNEL_MM_OOM_KILL_H
#define KERNEL_MM_OOM_KILL_H

/*
 * Free memory by killing one process: the one with the most pages mapped
 * (init only if it is alone), with the log line
 *     Out of memory: Killed process N (name) anon-rss:KkB
 * Kills nobody while an earlier victim (or any killed process) still holds
 * its memory: it is about to free it. Takes proc_lock: never call it with
 * proc_lock, tasks_lock or a run-queue lock held.
 */
void oom_kill(void);

#endif
