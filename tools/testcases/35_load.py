"""Responsive and killable under load: /bin/loadtest (user/tests/loadtest.c) floods the console with
more writers than CPUs. At 2 CPUs every runnable task gets a CPU within 20 ticks (200 ms); under
bkl=syscalls at 4 CPUs the BKL is let go while writers wait for the serial line (no lockup report)
and nothing waits a whole second. Everywhere a SIGKILLed writer is gone within 100 ticks and a
console write cut by a signal returns its partial count."""

# The scheduler's own report of a task that waited a second of ticks for its CPU (kernel/sched/sched.c).
STARVED = r"^INFO: task \d+ \(.*\) runnable but not picked"


def run(h):
    h.user_program("smp2", "loadtest", cpus=2, timeout=150, min_tests=3, forbid=[STARVED])
    # 4 vCPUs share this machine's 2 cores, and every write queues for the BKL: the bound is the
    # scheduler's report threshold (a second of ticks), the point is no lockup and no starvation.
    h.user_program("smp4-bkl-syscalls", "loadtest", cpus=4, timeout=240, min_tests=3,
                   append="bkl=syscalls loadtest_wait_ticks=99", forbid=[STARVED])
