"""Run the harness's check files side by side: `make test` in lanes.

A boot under TCG keeps one host core busy only while its vCPUs run; much of a check file's time
is boots that sleep, wait for a timer, or are a single-CPU guest, and host-side builds that use one
core. So two files run at once (SMPIX_TEST_LANES, default 2; 1 runs them one after the other). What each file prints is held back and printed whole when it ends, so a file's lines stay
together. A file in SOLO measures time or loads the machine on purpose: it runs with nothing
beside it, or a neighbour's load would make it lie.
"""
import io
import os
import sys
import threading
import time

SOLO = {
    "30_sched_bkl.py",      # the scheduler's fairness and the BKL's hand-over, watched by the clock
    "35_load.py",           # flooding writers against runnable tasks: latencies with bounds
    "48_ioctlbench.py",     # measures calls per second
    "50_fuzz.py",           # a child that does not die within its time is a finding
    "51_typeahead.py",      # types at 2 ms a key, as a person would
    "55_sleep.py",          # sleeps checked against the host's clock, on a busy host by design
    "61_labs_measured.py",  # lab 9's handout caught by lock contention: four vCPUs must run at once
}


# The longest files start first, so that the short ones fill the other lane beside them; the SOLO
# files come last, all together, so that none of them waits for a long file to end.
LONG = ["60_labs.py", "32_eras.py", "50_userland.py", "15_tools.py"]


def order(files):
    solo = [f for f in files if f in SOLO]
    rest = [f for f in files if f not in SOLO]
    return [f for f in LONG if f in rest] + [f for f in rest if f not in LONG] + solo


class _Router(io.TextIOBase):
    """sys.stdout for the lanes: a thread with a buffer writes there, any other to the terminal."""

    def __init__(self, real):
        self.real = real
        self.local = threading.local()

    def write(self, text):
        buf = getattr(self.local, "buf", None)
        return buf.write(text) if buf is not None else self.real.write(text)

    def flush(self):
        if getattr(self.local, "buf", None) is None:
            self.real.flush()


def run_files(files, run_one, lanes=None):
    """run_one(f) for each file, up to `lanes` at a time, SOLO files alone, in order()."""
    lanes = lanes or max(1, int(os.environ.get("SMPIX_TEST_LANES", "2") or 2))
    router = _Router(sys.stdout)
    sys.stdout = router
    out_lock = threading.Lock()
    running = []

    def lane(f):
        router.local.buf = io.StringIO()
        t0 = time.monotonic()
        try:
            run_one(f)
        finally:
            took = time.monotonic() - t0
            text = router.local.buf.getvalue()
            router.local.buf = None
            with out_lock:
                router.real.write(text + (f"(tools/test/cases/{f}: {took:.0f} s)\n" if took >= 1 else ""))
                router.real.flush()

    def wait_for_slot(limit):
        while len(running) >= limit:
            for t in running:
                t.join(0.1)
            running[:] = [t for t in running if t.is_alive()]

    try:
        for f in order(files):
            wait_for_slot(1 if f in SOLO else lanes)
            t = threading.Thread(target=lane, args=(f,), name=f)
            t.start()
            running.append(t)
            if f in SOLO:
                wait_for_slot(1)
        wait_for_slot(1)
    finally:
        sys.stdout = router.real
