/* Every character-device driver, started in one place so a reader sees the list. */
#ifndef DRIVERS_DRIVERS_H
#define DRIVERS_DRIVERS_H

/* Register all drivers and their /dev nodes (after vfs_init, before init runs). */
void drivers_init(void);

#endif
