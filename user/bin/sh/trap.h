/* Traps: commands run on a signal or at exit (the trap builtin is in trap.c). */
#ifndef SH_TRAP_H
#define SH_TRAP_H

void trap_run_pending(void);    /* run the traps of the signals that came; a safe point */
void trap_run_exit(void);       /* the EXIT trap, once, from the shell itself (not a subshell) */
/* In a forked copy of the shell: traps with a command go back to the default; ignored ones stay ignored. */
void trap_subshell(void);

#endif
