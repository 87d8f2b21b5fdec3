"""Memory under pressure (/bin/memtest): brk never stalls the CPU, pages come on demand, and
exhaustion from several processes at once ends with the OOM killer's line and a kernel that goes on."""

OOM_LINE = r"^Out of memory: Killed process \d+ \(memtest\) anon-rss:\d+kB$"
# A valid address never faults, whatever the memory pressure.
NO_SEGFAULT = r"segfault at"


def run(h):
    h.user_program("smp1", "memtest", cpus=1, min_tests=5, patterns=[OOM_LINE], forbid=[NO_SEGFAULT])
    h.user_program("smp4", "memtest", cpus=4, min_tests=5, patterns=[OOM_LINE], forbid=[NO_SEGFAULT])
    # Under the BKL every brk() holds it: a long one used to trigger the BKL lockup report.
    h.user_program("bkl-syscalls", "memtest", cpus=2, append="bkl=syscalls", min_tests=5,
                   patterns=[OOM_LINE], forbid=[NO_SEGFAULT])
