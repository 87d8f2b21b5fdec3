"""Responsive and killable under load: /bin/loadtest (user/tests/loadtest.c) floods the console with
more writers than CPUs. At 2 CPUs every runnable task gets a CPU within 20 ticks (200 ms), and a
CPU-bound task beside writers on the other CPU is never stopped longer (the console's transmit
interrupt once held CPU 0 for seconds); under bkl=syscalls at 4 CPUs the BKL is let go while
writers wait for the serial line (no lockup report) and nothing waits a whole second. Everywhere a
SIGKILLed writer is gone within 100 ticks and a console write cut by a signal returns its partial
count."""

# The scheduler's own report of a task that waited a second of ticks for its CPU (kernel/sched/sched.c).
STARVED = r"^INFO: task \d+ \(.*\) runnable but not picked"


def run(h):
    h.user_program("smp2", "loadtest", cpus=2, timeout=150, min_tests=4, forbid=[STARVED])
    # 4 vCPUs share this machine's 2 cores, and every write queues for the BKL: the bound is the
    # scheduler's report threshold (a second of ticks), the point is no lockup and no starvation.
    # No stall check here: each of the CPU-bound task's looks at the clock queues for the BKL too,
    # behind a writer that may hold it through a whole 64 KiB write (half a second, measured), on a
    # vCPU the host may not be running; the stall would measure that, not the CPU's interrupts.
    h.user_program("smp4-bkl-syscalls", "loadtest", cpus=4, timeout=240, min_tests=4,
                   append="bkl=syscalls loadtest_wait_ticks=99 loadtest_stall_ticks=0", forbid=[STARVED])
