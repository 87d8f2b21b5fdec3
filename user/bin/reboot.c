/* reboot: restart the machine (reboot(2) with LINUX_REBOOT_CMD_RESTART). */
#include <stdio.h>
#include <sys/reboot.h>

int main(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: reboot\n");
		return 2;
	}
	reboot(RB_AUTOBOOT);
	perror("reboot");
	return 1;
}
