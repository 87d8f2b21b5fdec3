"""mmap2, mmap, munmap, mprotect, mremap: mmaptest booted as init at 1 and 4 CPUs, and on this Linux host."""
import importlib

suites = importlib.import_module("46_pipes_proc")


def run(h):
    suites.on_linux(h, "mmaptest", 11)
    suites.guest_suite(h, "mmaptest", "smp4", cpus=4, min_tests=12)
    suites.guest_suite(h, "mmaptest", "smp1", cpus=1, min_tests=12)
