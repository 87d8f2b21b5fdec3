"""The syscall fuzzer (/bin/fuzz) for a bounded time: 1 and 4 CPUs, and every call under the BKL.
Fixed seeds, so a failure here replays with the `make fuzz` line the check prints."""


def run(h):
    h.fuzz("smp1", seconds=12, seed=1, cpus=1)
    h.fuzz("smp4", seconds=12, seed=4, cpus=4)
    h.fuzz("bkl-syscalls", seconds=10, seed=2, cpus=2, append="bkl=syscalls")
