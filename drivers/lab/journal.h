/* /dev/journal: lab 6's driver, a numbered log of records (one per write()). */
#ifndef DRIVERS_JOURNAL_H
#define DRIVERS_JOURNAL_H

#define JOURNAL_MAJOR      243  /* Linux's "local/experimental use" range (242: tally) */
#define JOURNAL_MINOR      0
#define JOURNAL_RECORD_MAX 48   /* bytes in one record: a longer write() is refused */
#define JOURNAL_KEEP       16   /* the newest records kept for reading */

void journal_init(void);

#endif
