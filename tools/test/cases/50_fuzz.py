"""The syscall fuzzer (/bin/fuzz) for a bounded time: 1, 2 and 4 CPUs, and every call under the BKL
at 4. Each run has 3 x CPUs + 3 children, big writes to the console and to pipes, and random
SIGKILLs that must take effect within a second of ticks; a task left runnable for a second is a
finding. Some calls are thread storms (issue 31): clone with random flags on a fresh stack, random futex
operations on good and bad addresses, a region unmapped under a thread that touches it. Fixed seeds, so a failure here replays with the `make fuzz` line the check prints."""


# fuzz_selftest=1 plants a child that sleeps 1000 s: the watchdog must kill it, replay it
# printing its one call, and kill the replay too (the child and its replay: two hangs at
# least; a random call may add one, since one sleep in 256 is left long on purpose).
HANG_CAUGHT = [r"^fuzz: child 0 \(pid \d+\) hung; killing it \(replay: fuzz_child=0\)$",
               r"^fuzz: replaying child 0, printing each call$",
               r"^fuzz: \[child 0\] #0 nanosleep\(nr 162; ",
               r"^fuzz: child 0 \(pid \d+\) hung; killing it",
               r"^fuzz: summary .* hangs=([2-9]|\d\d+) "]


def run(h):
    h.fuzz("hang-detector", seconds=3, seed=5, cpus=2, append="fuzz_selftest=1 fuzz_hang_ms=1000",
           patterns=HANG_CAUGHT)
    h.fuzz("smp1", seconds=4, seed=1, cpus=1)   # one vCPU: the shortest; 2 and 4 CPUs find the races
    h.fuzz("smp2", seconds=8, seed=3, cpus=2)
    h.fuzz("smp4", seconds=8, seed=4, cpus=4)
    h.fuzz("bkl-syscalls-smp4", seconds=8, seed=2, cpus=4, append="bkl=syscalls")
