"""Job control (issue 31's leftovers, docs/signals.md "Stopping and job control"): jobtest booted as
init at 2 CPUs and at 4 under bkl=syscalls, with the console as its controlling terminal, and the
same binary (build/jobtest-linux) on the Linux reference in its tty mode, which proves its
expectations are Linux's: the stop signals stop every thread, wait4's WUNTRACED and WCONTINUED
report once each, SIGCHLD's CLD_STOPPED and CLD_CONTINUED (none with SA_NOCLDSTOP), an orphaned
group is not stopped by ^Z's signals, a background group at the terminal gets SIGTTIN, SIGTTOU or
-EIO; waitid's idtypes, options and errors; an exit that orphans a group with a stopped member
sends it SIGHUP and SIGCONT. The shell's side (^Z, jobs, fg, bg) is checked in 51_jobctl.py."""
import testlib as suites  # noqa: E402

MIN_TESTS = 19


def run(h):
    suites.on_linux(h, "jobtest", MIN_TESTS)
    suites.guest_suite(h, "jobtest", "smp2", cpus=2, min_tests=MIN_TESTS + 1)    # + init's own test
    # 4 CPUs, every call under the BKL: a wait, a stop, an orphan's SIGHUP must let it go.
    suites.guest_suite(h, "jobtest", "smp4-bkl-syscalls", cpus=4, min_tests=MIN_TESTS,
                       append="bkl=syscalls")
