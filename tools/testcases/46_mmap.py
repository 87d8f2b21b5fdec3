"""mmap2, mmap, munmap, mprotect, mremap: mmaptest booted as init at 1 and 4 CPUs, and on this Linux host."""
import os
import subprocess

import testlib as suites  # noqa: E402


def compat_memory_on_linux(h):
    """The glibc program of big mallocs and mprotect (run on smpix by 45_signals.py) passes on Linux too."""
    name = "host: compat-memory on Linux (glibc malloc over mmap, mprotect)"
    if not h.wanted(name):
        return
    exe = os.path.join(h.BUILD, "ubin", "compat-memory")
    if not os.access(exe, os.X_OK):
        return h.record(name, False, "build/ubin/compat-memory is missing")
    try:
        p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    except OSError as e:
        return h.skip(name, f"this host cannot run i386 programs ({e})")
    h.record(name, p.returncode == 0 and "memory: all ok" in p.stdout, p.stdout.strip()[-200:])


def run(h):
    compat_memory_on_linux(h)
    suites.on_linux(h, "mmaptest", 11)
    suites.guest_suite(h, "mmaptest", "smp4", cpus=4, min_tests=12)
    suites.guest_suite(h, "mmaptest", "smp1", cpus=1, min_tests=12)
