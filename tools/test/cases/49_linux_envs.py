"""The guest tests that also run on Linux, in a place that is not a plain one.

The Linux reference runs (45_*.py, 46_*.py, 47_*.py) prove that what the tests expect is Linux's
behaviour. People also run `make test` in a fresh Debian chroot or a container, where
/proc/mounts lacks /, /dev is bare, there is no terminal, the test is pid 1 of a pid namespace,
or it is not root. So each program runs once more in such a place (tools/test/linuxref.py's "chroot"
mode, on Debian's kernel in QEMU and, where it runs i386 programs, on this host): a bare
chroot (a plain directory, not a mount point) with /proc mounted, an empty /dev, no tty, as
pid 1 of new pid and mount namespaces, as user nobody. A test the place cannot show must say
SKIP and why (user/tests/gtest.h's SKIP_IF); none may FAIL.
"""
import re

import linuxref


def run(h):
    for suite, _, _ in linuxref.GTESTS:
        def judge(label, result, suite=suite):
            count, fails = h.suite_results(label, suite, result.out, each=False)
            problems = fails[:3]
            if count == 0 or not re.search(rf"^{suite}: summary", result.out, re.M):
                problems.append(f"no test ran: {result.out.strip()[-200:]!r}")
            if result.status != 0:
                problems.append(f"exit status {result.status}")
            return problems
        linuxref.check(h, f"linux-env[bare chroot, pid 1, no tty] {suite}", f"chroot-{suite}", judge)
