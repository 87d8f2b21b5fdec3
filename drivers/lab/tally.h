/* /dev/tally: lab 5's driver, a board of counters updated by ioctl (kernel/uapi/tally.h). */
#ifndef DRIVERS_TALLY_H
#define DRIVERS_TALLY_H

#define TALLY_MAJOR 242         /* Linux's "local/experimental use" range (240: kcounts, 241: bench) */
#define TALLY_MINOR 0

void tally_init(void);

#endif
