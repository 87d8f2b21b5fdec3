"""Linux's answers: /bin/linuxabi in the guest, and the very same binary on this host's Linux."""
import os
import platform

PROG = "linuxabi"


def on_host(h):
    """Every expectation of linuxabi is Linux's: prove it by running the i386 binary here."""
    name = f"{PROG}[host-linux]"
    if not h.wanted(name):
        return
    exe = os.path.join(h.BUILD, "ubin", PROG)
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "i686", "i386"):
        h.skip(name, f"needs an x86 Linux host, this is {platform.system()} {platform.machine()}")
        return
    h.host_run(name, PROG, exe, min_tests=8)


def run(h):
    on_host(h)
    h.user_program("smp1", PROG, cpus=1, min_tests=8)
    h.user_program("smp4", PROG, cpus=4, min_tests=8)
