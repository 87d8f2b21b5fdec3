"""smpix deadlock: who waits for whom, and the cycle if there is one.

A task waits for another when its CPU spins on a spinlock the other's CPU holds
(read from the CPU's stack, as smpix cpus does), spins for the BKL the other
holds, sleeps in mutex_lock() for a mutex the other owns (task->blocked_on,
kernel/locking/mutex.c), or sleeps for the semaphore BKL of era=2.6.8 the other holds. Following "waits for" from task to task either ends at
a task that waits for nothing (it is slow, not stuck) or comes back to where it
started: a deadlock, printed as the ring of tasks and the lock each waits for.
"""
import gdb

import smpix_kernel as k


def spin_edges(edges):
    """Edges from the tasks running on CPUs that spin for a lock someone else holds."""
    bkl = k.bkl()
    bkl_holder = bkl["holder"]
    for i, thread in k.cpu_threads().items():
        c = k.ev(f"cpus[{i}]")
        curr = c["curr"]
        what = k.spinning_on(thread)
        if what is None or int(curr) == 0:
            continue
        kind, lock = what
        if kind == "bkl":
            if int(bkl_holder) and int(bkl_holder) != int(curr):
                edges[int(curr)] = (curr, bkl_holder, "the BKL")
        elif lock is not None and int(lock["owner"]) != int(lock["next"]):
            holder_cpu = int(lock["holder_cpu"])
            if 0 <= holder_cpu != i:
                holder = k.ev(f"cpus[{holder_cpu}].curr")
                edges[int(curr)] = (curr, holder, "spinlock " + k.cstr(lock["name"]))


def semaphore_edges(edges):
    """Edges from the tasks asleep for the semaphore BKL (era=2.6.8) to its holder."""
    if not k.bkl_is_semaphore():
        return
    holder = k.bkl_sem()["holder"]
    for t in k.bkl_sem_sleepers():
        if int(holder) and int(t) not in edges:
            edges[int(t)] = (t, holder, "the BKL (semaphore)")


def mutex_edges(edges):
    """Edges from the tasks asleep in mutex_lock() to the mutexes' owners."""
    for t in k.all_tasks():
        m = t["blocked_on"]
        if int(m) == 0 or int(m["owner"]) == 0 or int(t) in edges:
            continue
        edges[int(t)] = (t, m["owner"], "mutex " + k.cstr(m["name"]))


def find_cycle(edges, start):
    """The ring of tasks from start if following its edges comes back to one of them."""
    seen, order, node = {}, [], start
    while node in edges and node not in seen:
        seen[node] = len(order)
        order.append(node)
        node = int(edges[node][1])
    if node in seen:
        return order[seen[node]:]
    return None


class SmpixDeadlock(gdb.Command):
    """Walk who waits for whom (spinlocks, the BKL, mutexes) and print any cycle: a deadlock.

Usage: smpix deadlock. Without a cycle, it lists every wait it found (the chains end at
tasks that are running or waiting for something else, which is slowness, not deadlock)."""

    def __init__(self):
        super().__init__("smpix deadlock", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        edges = {}
        spin_edges(edges)
        mutex_edges(edges)
        semaphore_edges(edges)
        cycles, done = [], set()
        for start in edges:
            if start in done:
                continue
            ring = find_cycle(edges, start)
            if ring and not done.intersection(ring):
                cycles.append(ring)
            done.update(ring or [])
        for ring in cycles:
            gdb.write(f"deadlock: a cycle of {len(ring)} tasks\n")
            for node in ring:
                waiter, holder, what = edges[node]
                gdb.write(f"  {k.task_str(waiter)} waits for {what}, held by {k.task_str(holder)}\n")
        if not cycles:
            gdb.write(f"no deadlock: {len(edges)} task(s) waiting, no cycle\n")
            for waiter, holder, what in edges.values():
                gdb.write(f"  {k.task_str(waiter)} waits for {what}, held by {k.task_str(holder)}\n")


SmpixDeadlock()
