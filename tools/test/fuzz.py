#!/usr/bin/env python3
"""`make fuzz SECONDS=N CPUS=N SEED=N [MEM=M] [APPEND=...]`: run the syscall fuzzer longer than `make test`
does. SEED=0 picks a new seed (printed, for replay). Exit status 1 on any finding."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def main():
    seconds = int(os.environ.get("SECONDS_", "60"))
    cpus = int(os.environ.get("CPUS", "2"))
    seed = int(os.environ.get("SEED", "0")) or (int(time.time()) & 0x7FFFFFFF) | 1
    mem = int(os.environ.get("MEM", "128"))
    append = os.environ.get("APPEND", "")
    print(f"fuzzing for {seconds} s on {cpus} CPUs with {mem} MiB, seed {seed}", flush=True)
    harness.fuzz("manual", seconds, seed, cpus=cpus, mem=mem, append=append, echo=True)
    print(f"{harness.passed} passed, {harness.failed} failed; log in build/test-logs/fuzz-manual.log")
    return 1 if harness.failed else 0


if __name__ == "__main__":
    sys.exit(main())
