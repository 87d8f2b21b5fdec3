"""One address space on several CPUs (issue 31, docs/mm.md section 8): tlbtest booted as init at 2
and 4 CPUs and at 2 under bkl=syscalls, with the lock-order checker on (as every boot); and the same
binary (build/tlbtest-linux) on the Linux reference, which proves its expectations are Linux's.
A reader on one CPU must fault at once when another CPU unmaps or protects its page, and never see
the frame reused: a kernel without TLB shootdowns fails. The ktests of the same work
(rwsem_*, tlb_shootdown_*) run in every ktest boot (10_boot.py, 20_smp.py)."""
import testlib as suites  # noqa: E402

MIN_TESTS = 8


def run(h):
    suites.on_linux(h, "tlbtest", MIN_TESTS)
    suites.guest_suite(h, "tlbtest", "smp2", cpus=2, min_tests=MIN_TESTS)
    suites.guest_suite(h, "tlbtest", "smp4", cpus=4, min_tests=MIN_TESTS)
    suites.guest_suite(h, "tlbtest", "smp2-bkl-syscalls", cpus=2, min_tests=MIN_TESTS,
                       append="bkl=syscalls")
