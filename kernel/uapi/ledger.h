/*
 * /dev/ledger, the driver of lab 7 (docs/labs/lab7-pushdown.md): a small bank
 * of LEDGER_ACCOUNTS accounts in LEDGER_BRANCHES branches, driven by ioctls
 * with Linux's _IOC encoding. A transfer takes the money from one account,
 * waits for the back office (delay_us, a sleep), then pays it into the other:
 * whatever the interleaving, an audit must always find the same total.
 * Shared with user space.
 */
#ifndef SMPIX_UAPI_LEDGER_H
#define SMPIX_UAPI_LEDGER_H

#include "kernel/uapi/ioctl.h"

#define LEDGER_BRANCHES        2
#define LEDGER_ACCOUNTS        8        /* accounts 0-3 are branch 0's, 4-7 branch 1's */
#define LEDGER_PER_BRANCH      (LEDGER_ACCOUNTS / LEDGER_BRANCHES)
#define LEDGER_OPENING         1000     /* every account's balance after LEDGER_RESET */
#define LEDGER_MAX_DELAY_US    10000000u        /* ten seconds */

struct ledger_transfer {
	unsigned int from, to;          /* accounts, 0 .. LEDGER_ACCOUNTS-1, not equal */
	int amount;                     /* may overdraw: balances can go below zero */
	unsigned int delay_us;          /* the back office's time, between taking and paying */
};

struct ledger_audit {
	long long balance[LEDGER_ACCOUNTS];
	long long total;                /* their sum: LEDGER_ACCOUNTS * LEDGER_OPENING, always */
};

#define LEDGER_TRANSFER _IOW('L', 1, struct ledger_transfer)
#define LEDGER_AUDIT    _IOR('L', 2, struct ledger_audit)
#define LEDGER_RESET    _IO('L', 3)
#define LEDGER_KICK     _IO('L', 4)     /* every back office waiting now ends its wait */

#endif
