"""smpix bkl: the Big Kernel Lock now (kernel_flag in kernel/locking/bkl.c) and what each site cost."""
import gdb

import smpix_kernel as k

SORT_KEYS = ("acquisitions", "contended", "reacquisitions", "wait_cycles", "hold_cycles")


def site_str(s):
    return f"{k.cstr(s['file'])}:{int(s['line'])} {k.cstr(s['function'])}"


def sites():
    """Every struct bkl_site, in link order: the section .bkl_sites, between its two symbols."""
    start = k.ev("&bkl_sites_start[0]")
    stop = k.ev("&bkl_sites_stop[0]")
    return [start[i] for i in range(int(stop - start))]


def waiting_cpus(holder):
    """CPUs whose stacks are in bkl_raw_acquire() while another task holds the lock."""
    out = []
    for i, t in sorted(k.cpu_threads().items()):
        what = k.spinning_on(t)
        if what and what[0] == "bkl" and int(k.all_cpus()[i]["curr"]) != int(holder):
            out.append(i)
    return out


class SmpixBkl(gdb.Command):
    """The Big Kernel Lock: owner, depth, waiting CPUs, and the busiest lock_kernel() sites.

Usage: smpix bkl [N] [KEY]    N sites (default 8), sorted by KEY (default acquisitions;
                              also contended, reacquisitions, wait_cycles, hold_cycles)

The owner is kernel_flag.holder; its depth is the holder's task->lock_depth (0 = one
lock_kernel() not yet undone). "waiting" counts tickets handed out but not served;
the CPUs listed are those whose stack is in bkl_raw_acquire(). Booted with era=2.6.8
the BKL is kernel_sem, a semaphore: its holder (who may be preempted, so the CPU it
took it on), and the tasks asleep in down() for it, in the order they will get it.
The sites are the struct bkl_site records that each lock_kernel() plants in
section .bkl_sites."""

    def __init__(self):
        super().__init__("smpix bkl", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        top, key = 8, "acquisitions"
        for word in arg.split():
            if word.isdigit():
                top = int(word)
            elif word in SORT_KEYS:
                key = word
            else:
                raise gdb.GdbError("usage: smpix bkl [N] [" + "|".join(SORT_KEYS) + "]")
        if k.bkl_is_semaphore():
            semaphore_state()
        else:
            spinlock_state()
        for i, c in enumerate(k.all_cpus()):
            t = c["curr"]
            if int(t):
                gdb.write(f"  cpu {i}: {k.task_str(t)} lock_depth {int(t['lock_depth'])}\n")
        all_sites = sites()
        all_sites.sort(key=lambda s: -int(s[key]))
        gdb.write(f"{len(all_sites)} lock_kernel() sites; the busiest by {key}:\n")
        for s in all_sites[:top]:
            gdb.write(f"  {site_str(s)}: {int(s['acquisitions'])} acquired, {int(s['contended'])} contended, "
                      f"{int(s['reacquisitions'])} reacquired after sleep; cycles waited "
                      f"{int(s['wait_cycles'])}, held {int(s['hold_cycles'])} ({int(s['timed_holds'])} holds timed)\n")


def taken_at(lock):
    """', taken at file:line function' for the site charged with the current hold, or ''."""
    site = lock["site"]
    return f", taken at {site_str(site)}" if int(site) else ""


def spinlock_state():
    """The ticket-lock BKL (every era but 2.6.8): its holder, the tickets waiting, the CPUs spinning."""
    flag = k.bkl()
    holder = flag["holder"]
    tickets = (int(flag["next"]) - int(flag["owner"])) & 0xFFFF
    if int(holder):
        gdb.write(f"BKL held by {k.task_str(holder)} on CPU {int(flag['holder_cpu'])}, "
                  f"lock_depth {int(holder['lock_depth'])}, {max(tickets - 1, 0)} waiting{taken_at(flag)}\n")
    else:
        gdb.write(f"BKL free, {tickets} waiting\n")
    waiters = waiting_cpus(holder)
    if waiters:
        gdb.write("  spinning for it: " + ", ".join(f"CPU {i}" for i in waiters) + "\n")
    return holder


def semaphore_state():
    """The semaphore BKL (era=2.6.8): its holder, who may be preempted, and the tasks asleep for it."""
    sem = k.bkl_sem()
    holder = sem["holder"]
    sleepers = k.bkl_sem_sleepers()
    if int(holder):
        gdb.write(f"BKL (a semaphore, era=2.6.8) held by {k.task_str(holder)}, taken on CPU "
                  f"{int(sem['holder_cpu'])}, lock_depth {int(holder['lock_depth'])}, {len(sleepers)} asleep "
                  f"waiting{taken_at(sem)}\n")
    else:
        gdb.write(f"BKL (a semaphore, era=2.6.8) free, {len(sleepers)} asleep waiting\n")
    if sleepers:
        gdb.write("  asleep for it, in order: " + ", ".join(k.task_str(t) for t in sleepers) + "\n")
    return holder


SmpixBkl()
