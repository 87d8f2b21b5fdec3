/* poweroff: turn the machine off (reboot(2) with LINUX_REBOOT_CMD_POWER_OFF). */
#include <stdio.h>
#include <sys/reboot.h>

int main(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: poweroff\n");
		return 2;
	}
	reboot(RB_POWER_OFF);
	perror("poweroff");
	return 1;
}
