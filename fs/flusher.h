/* The flusher: a kernel thread that writes old dirty buffers back (see fs/flusher.c). */
#ifndef FS_FLUSHER_H
#define FS_FLUSHER_H

/* Start it (once, when the first disk exists). */
void flusher_start(void);
/* Write every dirty buffer back before the machine goes off (kernel/x86/power.c calls it). */
void flusher_sync_before_power_off(void);

#endif
