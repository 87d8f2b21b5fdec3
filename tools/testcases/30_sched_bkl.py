"""Tasks, the scheduler and the Big Kernel Lock: misuse must be reported, not tolerated."""


def run(h):
    h.expect_report("bkl-in-interrupt", "bkl_in_interrupt_is_reported",
                    [r"^BUG: lock_kernel\(\) called from interrupt context at kernel/tests/bkl_test\.c:\d+",
                     r"^BUG: unlock_kernel\(\) called from interrupt context",
                     r"bkl_from_irq_handler\+0x"])
    h.expect_report("bkl-unlock-without-lock", "bkl_unlock_without_lock_is_reported",
                    [r"^BUG: unlock_kernel\(\) without lock_kernel\(\) at kernel/tests/bkl_test\.c:\d+",
                     r"lock_depth -1"])
    h.expect_report("might-sleep-with-spinlock", "might_sleep_with_spinlock_is_reported",
                    [r"^BUG: sleeping function called from invalid context at kernel/tests/bkl_test\.c:\d+",
                     r"preempt_count: 1",
                     r"holding spinlock ktest-sleepy, taken at kernel/tests/bkl_test\.c:\d+",
                     r"ktest_fn_might_sleep_with_spinlock_is_reported\+0x"])
