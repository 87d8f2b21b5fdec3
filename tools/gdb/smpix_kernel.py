"""Reading smpix's data structures from gdb: CPUs, tasks, lists, spinlocks, stacks.

Everything is looked up by name in the kernel's debug info (gdb.parse_and_eval,
gdb.lookup_type), never by offset: when a field moves or a struct grows, the
commands follow. A field that is renamed or removed fails loudly, naming it.
"""
import re

import gdb

MAX_LIST = 4096         # a list longer than this is corrupt (or looping): stop walking it
MAX_FRAMES = 32         # how deep to look into a CPU's stack for a lock it spins on


def ev(expr):
    """Evaluate a C expression in the kernel's context."""
    return gdb.parse_and_eval(expr)


def field_offset(type_name, field):
    """Byte offset of field in a struct, from the debug info (what offsetof() would say)."""
    t = gdb.lookup_type(type_name).strip_typedefs()
    for f in t.fields():
        if f.name == field:
            return f.bitpos // 8
    raise gdb.GdbError(f"{type_name} has no field {field}: has the kernel changed?")


def container_of(ptr, type_name, field):
    """The struct type_name that holds *ptr as its member field (the kernel's container_of)."""
    addr = int(ptr) - field_offset(type_name, field)
    return gdb.Value(addr).cast(gdb.lookup_type(type_name).pointer())


def list_entries(head, type_name, field):
    """The elements of an intrusive list (struct list_head head), as pointers to type_name."""
    head_addr = int(head.address)
    node = head["next"]
    for _ in range(MAX_LIST):
        if int(node) == head_addr:
            return
        if int(node) == 0:
            raise gdb.GdbError(f"NULL next pointer in the list at {head_addr:#x}")
        yield container_of(node, type_name, field)
        node = node["next"]
    raise gdb.GdbError(f"the list at {head_addr:#x} has over {MAX_LIST} entries: corrupt?")


def cstr(v, default="?"):
    """A char array or char * as a Python string; default for NULL or unreadable memory."""
    try:
        if v.type.strip_typedefs().code == gdb.TYPE_CODE_PTR and int(v) == 0:
            return default
        return v.string()
    except (gdb.MemoryError, gdb.error, UnicodeDecodeError):
        return default


# ---- CPUs ---------------------------------------------------------------------------

def ncpus():
    """How many entries of cpus[] are in use (CPUs found, online or not; at least the BSP)."""
    nmax = ev("cpus").type.range()[1] + 1
    return min(max(int(ev("ncpus")), 1), nmax)


def all_cpus():
    """cpus[0..ncpus), the struct cpu of each processor (kernel/cpu.h)."""
    cpus = ev("cpus")
    return [cpus[i] for i in range(ncpus())]


def thread_cpu(thread):
    """The logical CPU number (index into cpus[]) a gdb thread runs as.

    First as the kernel itself finds it: %gs's base is that CPU's struct cpu
    (this_cpu() in kernel/cpu.h). In user mode %gs belongs to the program, so
    then fall back to QEMU's name for the thread ("CPU#2"), then to gdb's
    numbering (QEMU lists vCPUs in order: thread N is CPU N-1).
    """
    saved = gdb.selected_thread()
    try:
        if saved is None or saved.num != thread.num:
            thread.switch()
        try:
            gs_base = int(ev("$gs_base")) & 0xFFFFFFFF     # gdb shows it as a signed int
            first = int(ev("&cpus[0]"))
            size = gdb.lookup_type("struct cpu").sizeof
            if gs_base >= first and (gs_base - first) % size == 0 and (gs_base - first) // size < ncpus():
                return (gs_base - first) // size
        except gdb.error:
            pass
    finally:
        if saved is not None and saved.num != thread.num:
            saved.switch()
    m = re.search(r"CPU#(\d+)", thread.details or "")
    if m:
        return int(m.group(1))
    return thread.num - 1


def cpu_threads():
    """{cpu number: gdb thread} for the live inferior (empty when not connected)."""
    inf = gdb.selected_inferior()
    if inf is None or inf.pid == 0:
        return {}
    return {thread_cpu(t): t for t in inf.threads()}


def selected_cpu():
    """The CPU of gdb's selected thread, or 0 when there is none."""
    t = gdb.selected_thread()
    return thread_cpu(t) if t is not None else 0


# ---- tasks ----------------------------------------------------------------------------

def task_str(t):
    """'pid N (name)' for a struct task pointer, or '-' for NULL."""
    if int(t) == 0:
        return "-"
    return f"pid {int(t['pid'])} ({cstr(t['name'])})"


def state_name(t):
    """A task's state without the TASK_ prefix: RUNNING, SLEEPING, ..."""
    s = str(t["state"])
    return s[5:] if s.startswith("TASK_") else s


def all_tasks():
    """Every task on all_tasks (kernel/sched/task.c), in creation order; idle tasks are not on it."""
    return list_entries(ev("all_tasks"), "struct task", "all_link")


# ---- locks ----------------------------------------------------------------------------

def spinlock_str(l):
    """'name (held by CPU n, taken at file:line)' for a spinlock_t pointer."""
    name = cstr(l["name"])
    if int(l["owner"]) == int(l["next"]):
        return f"{name} (free)"
    return f"{name} (held by CPU {int(l['holder_cpu'])}, taken at {cstr(l['file'])}:{int(l['line'])})"


def locks_held(c):
    """The spinlocks a struct cpu records as held, innermost last (kernel/locking/spinlock.c, note_held)."""
    arr = c["locks_held"]
    cap = arr.type.range()[1] + 1
    n = int(c["nlocks_held"])
    return n, [arr[i] for i in range(min(n, cap))]


def _frame_arg(frame, name):
    try:
        v = frame.read_var(name)
    except (ValueError, gdb.error):
        return None
    try:
        int(v)
    except gdb.error:           # <optimized out>
        return None
    return v


def _entry_value(frame, name):
    """An argument's value at function entry (gdb's NAME@entry), when the compiler kept it
    only for the caller's sake: -O1 often leaves spin_lock_at()'s `l` "optimized out"."""
    try:
        frame.select()
        v = ev(f"{name}@entry")
        int(v)
        return v
    except gdb.error:
        return None


def spinning_on(thread):
    """What the CPU behind thread is spinning for, read from its stack.

    Returns (kind, detail): ("spinlock", spinlock_t * or None), ("bkl", None), or None.
    A CPU is found spinning when its stack shows spin_lock_at() (or its slow
    path spin_wait()) or the BKL's bkl_raw_acquire() (inlined or not; its slow
    path is bkl_spin()) while someone else holds that lock.
    """
    saved_thread = gdb.selected_thread()
    try:
        saved_frame = gdb.selected_frame()
    except gdb.error:
        saved_frame = None
    try:
        thread.switch()
        f = gdb.newest_frame()
        for _ in range(MAX_FRAMES):
            if f is None:
                break
            name = f.name() or ""
            if name in ("spin_wait", "spin_lock_at"):
                return ("spinlock", _frame_arg(f, "l") or _entry_value(f, "l"))
            if name in ("bkl_spin", "bkl_raw_acquire"):
                return ("bkl", None)
            # Go on through trap_common: an interrupt may have come in while the CPU spun.
            if name == "kthread_first_run":
                break           # the bottom of a kernel thread's stack
            try:
                f = f.older()
            except gdb.error:
                break
        return None
    except gdb.error:
        return None
    finally:
        if saved_thread is not None:
            saved_thread.switch()
        if saved_frame is not None:
            try:
                saved_frame.select()
            except gdb.error:
                pass


def bkl():
    """The BKL's ticket lock, `kernel_flag` in kernel/locking/bkl.c (static, so named by file)."""
    return ev("'bkl.c'::kernel_flag")


def bkl_is_semaphore():
    """Booted with era=2.6.8: the BKL is `kernel_sem` (kernel/locking/bkl_sem.c), not kernel_flag."""
    return int(ev("era_booted")) == int(ev("ERA_2_6_8"))


def bkl_sem():
    """The semaphore BKL of era=2.6.8, `kernel_sem` in kernel/locking/bkl_sem.c."""
    return ev("'bkl_sem.c'::kernel_sem")


def bkl_sem_sleepers():
    """The tasks asleep in down() for the semaphore BKL, first come first served."""
    return [w["task"] for w in list_entries(bkl_sem()["waiters"], "struct sem_waiter", "link")]
