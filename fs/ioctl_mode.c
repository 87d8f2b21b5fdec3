/* The ioctl policy: which ioctl() calls run under the BKL (see fs/ioctl_mode.h). */
#include "fs/ioctl_mode.h"

#include "kernel/atomic.h"
#include "kernel/cmdline.h"
#include "kernel/lib/string.h"
#include "kernel/printk.h"
#include "kernel/uapi/errno.h"

static const char *const mode_names[] = {
	[IOCTL_MODE_AUTO] = "auto",
	[IOCTL_MODE_SERIALIZED] = "serialized",
	[IOCTL_MODE_UNLOCKED] = "unlocked",
};

/* One word, written whole and read whole: no lock needed, READ_ONCE/WRITE_ONCE suffice. */
static enum ioctl_mode current_mode = IOCTL_MODE_AUTO;

enum ioctl_mode ioctl_mode_get(void)
{
	return READ_ONCE(current_mode);
}

const char *ioctl_mode_name(enum ioctl_mode mode)
{
	return (unsigned)mode < ARRAY_SIZE(mode_names) ? mode_names[mode] : "?";
}

int ioctl_mode_set(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (strcmp(name, mode_names[i]) == 0) {
			WRITE_ONCE(current_mode, (enum ioctl_mode)i);
			return 0;
		}
	}
	return -EINVAL;
}

void ioctl_mode_init(void)
{
	const char *word = cmdline_get("ioctl");

	if (word && ioctl_mode_set(word) < 0)
		printk("ioctl: unknown ioctl=%s (want auto, serialized or unlocked); using auto\n", word);
}
