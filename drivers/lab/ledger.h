/* /dev/ledger: lab 7's driver, accounts in two branches moved by ioctl (kernel/uapi/ledger.h). */
#ifndef DRIVERS_LEDGER_H
#define DRIVERS_LEDGER_H

#define LEDGER_MAJOR 244        /* Linux's "local/experimental use" range (243: journal) */
#define LEDGER_MINOR 0

void ledger_init(void);

#endif
