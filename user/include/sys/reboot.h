/* <sys/reboot.h>: reboot(2) with glibc's one-argument shape; the magic numbers are added by the wrapper. */
#ifndef USER_SYS_REBOOT_H
#define USER_SYS_REBOOT_H

#define RB_AUTOBOOT  0x01234567
#define RB_POWER_OFF 0x4321FEDC

int reboot(int cmd);

#endif
