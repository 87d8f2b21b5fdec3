/* /dev/debugcon: bytes written go straight out of port 0xE9, to QEMU's -debugcon. */
#ifndef DRIVERS_DEBUGCON_H
#define DRIVERS_DEBUGCON_H

#define DEBUGCON_MAJOR 245      /* Linux's "local/experimental use" range (244: ledger) */
#define DEBUGCON_MINOR 0

void debugcon_init(void);

#endif
