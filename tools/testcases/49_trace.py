"""The event trace (kernel/trace/, docs/tracing.md): its events, provoked on purpose and found in
order, in the kernel (ktests) and from user space (tracetest); checked for what happened, never
for how long it took."""

TRACE_KTESTS = "trace_records_each_event_kind_in_order,trace_off_records_nothing"


def run(h):
    h.ktests("trace-smp2", tests=TRACE_KTESTS, cpus=2, min_count=2)
    h.ktests("trace-smp1", tests=TRACE_KTESTS, cpus=1, min_count=2)
    h.ktests("trace-on-at-boot", tests=TRACE_KTESTS, cpus=4, min_count=2, append="trace=1 trace_buf=1024")
    h.user_program("smp2", "tracetest", cpus=2, min_tests=5)
    h.user_program("smp1", "tracetest", cpus=1, min_tests=5)
