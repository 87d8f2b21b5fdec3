/*
 * <getopt.h>: option parsing beyond POSIX's getopt() (which <unistd.h>
 * declares), as glibc keeps getopt_long here: the count of head and tail.
 */
#ifndef USER_GETOPT_H
#define USER_GETOPT_H

#include <unistd.h>

int getopt_count(int argc, char **argv, long *n);

#endif
