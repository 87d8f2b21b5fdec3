// TESTS: kernel/cmdline.c kernel/lib/string.c
/* The kernel command line parser: words, values, duplicates, limits. */
#include "hosttest.h"

#include "kernel/cmdline.h"

int main(void)
{
	static struct cmdline cl;
	static char longline[CMDLINE_MAX * 2];

	cmdline_parse(&cl, "init=/bin/sh  test=all,bkl\tquiet bkl=syscalls x= ");
	CHECK(cl.nwords == 5);
	CHECK_STR(cmdline_lookup(&cl, "init"), "/bin/sh");
	CHECK_STR(cmdline_lookup(&cl, "test"), "all,bkl");
	CHECK_STR(cmdline_lookup(&cl, "quiet"), "");
	CHECK_STR(cmdline_lookup(&cl, "x"), "");
	CHECK(cmdline_lookup(&cl, "missing") == NULL);
	CHECK(cmdline_lookup(&cl, "ini") == NULL);
	CHECK(!cl.truncated);

	/* A value may itself contain '=' ; the key ends at the first one. */
	cmdline_parse(&cl, "a=b=c");
	CHECK_STR(cmdline_lookup(&cl, "a"), "b=c");

	/* The last duplicate wins. */
	cmdline_parse(&cl, "ioctl=auto ioctl=unlocked");
	CHECK_STR(cmdline_lookup(&cl, "ioctl"), "unlocked");

	/* GRUB passes the kernel's path as the first word: a bare word, harmless. */
	cmdline_parse(&cl, "/boot/kernel.elf test=all");
	CHECK_STR(cmdline_lookup(&cl, "test"), "all");

	cmdline_parse(&cl, "");
	CHECK(cl.nwords == 0);
	cmdline_parse(&cl, NULL);
	CHECK(cl.nwords == 0);
	cmdline_parse(&cl, "   ");
	CHECK(cl.nwords == 0);

	/* Too many words, too long a line: cut, flagged, never overrun. */
	longline[0] = 0;
	for (int i = 0; i < CMDLINE_WORDS + 10; i++)
		strcat(longline, "w=1 ");
	cmdline_parse(&cl, longline);
	CHECK(cl.nwords == CMDLINE_WORDS);
	CHECK(cl.truncated);
	memset(longline, 'k', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = 0;
	cmdline_parse(&cl, longline);
	CHECK(cl.truncated);
	CHECK(cl.nwords == 1);
	CHECK(strlen(cl.key[0]) == CMDLINE_MAX - 1);
	return hosttest_finish("cmdline");
}
