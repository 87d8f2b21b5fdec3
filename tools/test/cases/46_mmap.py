"""mmap2, mmap, munmap, mprotect, mremap: mmaptest booted as init at 1 and 4 CPUs, and on the Linux reference."""
import linuxref
import testlib as suites  # noqa: E402


def compat_memory_on_linux(h):
    """The glibc program of big mallocs and mprotect (run on smpix by 45_signals.py) passes on Linux too."""
    def judge(label, result):
        ok = result.status == 0 and "memory: all ok" in result.out
        return [] if ok else [result.out.strip()[-200:] or f"exit status {result.status}"]
    linuxref.check(h, "linux: compat-memory (glibc malloc over mmap, mprotect)", "compat-memory", judge)


def run(h):
    compat_memory_on_linux(h)
    suites.on_linux(h, "mmaptest", 11)
    suites.guest_suite(h, "mmaptest", "smp4", cpus=4, min_tests=12)
    suites.guest_suite(h, "mmaptest", "smp1", cpus=1, min_tests=12)
