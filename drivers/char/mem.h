/* /dev/null, /dev/zero and /dev/full. */
#ifndef DRIVERS_MEM_H
#define DRIVERS_MEM_H

void mem_devices_init(void);

#endif
