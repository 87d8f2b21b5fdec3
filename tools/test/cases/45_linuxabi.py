"""Linux's answers: /bin/linuxabi in the guest, and the very same binary on the Linux reference."""
import linuxref

PROG = "linuxabi"


def run(h):
    # Every expectation of linuxabi is Linux's: prove it by running the i386 binary there.
    linuxref.check(h, f"linux: {PROG}", PROG, linuxref.suite_judge(h, PROG, 8))
    h.user_program("smp1", PROG, cpus=1, min_tests=8)
    h.user_program("smp4", PROG, cpus=4, min_tests=8)
