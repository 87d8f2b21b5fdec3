"""The eras (kernel/era.c, docs/bkl.md "The eras"): each era= boots, says so in /proc, sets the BKL's
knobs as that Linux had them, and runs usertests; the 2.6.8 BKL is a semaphore whose holder can be
preempted and whose waiter sleeps; the kernel built without the BKL (make ERA=2.6.39) has no
lock_kernel() site left, boots as 2.6.39 and runs usertests."""
import os
import re
import subprocess

from testlib import Session

USERTESTS_SUMMARY = re.compile(r"^usertests: (\d+) passed, (\d+) failed$", re.M)

# era: (what /proc/sys/kernel/ioctl_mode says, the header of /proc/syscalls)
ERAS = {
    "2.0": ("serialized", "# bkl=syscalls"),
    "2.2": ("serialized", "# bkl=flagged"),
    "2.4": ("serialized", "# bkl=flagged"),
    "2.6.6": ("serialized", "# bkl=flagged"),
    "2.6.8": ("serialized", "# bkl=flagged"),
    "2.6.11": ("auto", "# bkl=flagged"),
}

# The BKL's own ktests, and the two that tell a semaphore from a spinlock, booted as 2.6.8.
SEM_KTESTS = ",".join([
    "bkl_holder_is_preempted_only_as_a_semaphore", "bkl_waiter_sleeps_only_as_a_semaphore",
    "bkl_nests_three_deep", "bkl_released_while_holder_sleeps", "bkl_contention_from_all_cpus_is_exact",
    "bkl_statistics_count_each_site", "bkl_released_when_holder_yields_alone",
    "bkl_holders_that_yield_keep_their_counter_exact", "bkld_holds_the_bkl_for_life",
    "syscall_bkl_flag_takes_the_bkl", "lockdep_bkl_holder_sleeping_makes_no_edges"])


# usertests in the eras whose BKL differs from the default kernel's spinlock BKL at its sites: every
# call under it (2.0), a semaphore (2.6.8), none (2.6.39). 2.6.6 and 2.6.11 differ from the default
# only in the ioctl policy, which ioctltest and 47_ioctl check; their boots check the knobs alone.
USERTESTS_ERAS = ("2.0", "2.6.8", "2.6.39")


def era_boot(h, era, label=None, kernel=None, initrd=None, ioctl_mode="auto", syscalls="# bkl=flagged"):
    """Boot era=ERA to the shell: the boot line, /proc/sys/kernel/era, /proc/bkl's era line and the
    knobs the era sets; then (USERTESTS_ERAS) usertests from the shell, all passing; then a clean
    power off."""
    name = f"era[{label or era}]"
    if not h.wanted(name):
        return
    s = Session(h, f"era-{label or era}", cpus=2, timeout=300, append=f"era={era}", kernel=kernel,
                initrd=initrd)
    problems = []
    if not s.ok:
        h.record(f"{name} boots to the shell", False, "no prompt" + (" (timeout)" if s.q.timed_out else ""))
        s.q.kill()
        return
    if not re.search(rf"^era: {re.escape(era)}: ", s.q.output, re.M):
        problems.append(f"no boot line 'era: {era}: ...'")
    got = s.run("cat /proc/sys/kernel/era")
    if got != f"{era}\n":
        problems.append(f"/proc/sys/kernel/era says {got!r}")
    got = s.run("head -n 3 /proc/bkl") or ""
    if not re.search(rf"^era: {re.escape(era)}: ", got, re.M):
        problems.append(f"/proc/bkl has no line 'era: {era}: ...' ({got!r})")
    got = s.run("cat /proc/sys/kernel/ioctl_mode")
    if got != f"{ioctl_mode}\n":
        problems.append(f"ioctl_mode is {got!r}, not {ioctl_mode}")
    got = s.run("head -n 1 /proc/syscalls") or ""
    if not got.startswith(syscalls):
        problems.append(f"/proc/syscalls begins {got!r}, not {syscalls!r}")
    # The block lock and read()'s flag: 2.2 and 2.4 put the queues under io_request_lock; 2.2 alone
    # kept read() under the BKL (SYS_BKL_2_2); 2.0 had everything under it, the rest have neither.
    queue_lock = {"2.0": "the BKL", "2.2": "io_request_lock", "2.4": "io_request_lock"}.get(era, "their own locks")
    if not re.search(rf"^block: request queues locked by {queue_lock}", s.q.output, re.M):
        problems.append(f"no boot line 'block: request queues locked by {queue_lock}'")
    got = s.run("grep ' read ' /proc/syscalls") or ""
    want_flag = "bkl" if era == "2.2" else "-"
    if not re.search(rf"^\s*3 read\s+3 {re.escape(want_flag)}\s", got, re.M):
        problems.append(f"/proc/syscalls' read line is {got!r}, not flagged {want_flag!r}")
    got = s.run("echo x > /proc/sys/kernel/era; echo status=$?")
    if not got or "status=0" in got:
        problems.append(f"/proc/sys/kernel/era took a write ({got!r})")
    h.record(f"{name} says so in /proc and sets the knobs", not problems, "; ".join(problems))
    problems = []
    if era in USERTESTS_ERAS:
        out = s.run("usertests", timeout=240)
        m = USERTESTS_SUMMARY.search(out or "")
        if not m:
            problems.append("no usertests summary" + (" (timeout)" if s.q.timed_out else ""))
        elif m.group(2) != "0" or int(m.group(1)) < 20:
            problems.append(f"usertests: {m.group(0)}: " +
                            " | ".join(re.findall(r"^usertests: \S+ FAIL.*$", out, re.M))[:300])
    s.q.send("poweroff\r")
    s.q.wait_exit()
    if h.bad_lines(s.q.output):
        problems.append("kernel reported: " + h.bad_lines(s.q.output)[0])
    if s.q.exit_code != 0:
        problems.append(f"QEMU exit status {s.q.exit_code}")
    h.record(f"{name} {'usertests pass, ' if era in USERTESTS_ERAS else ''}power off", not problems,
             "; ".join(problems))


def no_bkl_build(h):
    """build/era-2.6.39 (make test builds it with make ERA=2.6.39): no lock_kernel() built in,
    tools/build/bklsurvey agrees (0 sites), the era words it cannot be say so, and it runs usertests."""
    d = os.path.join(h.BUILD, "era-2.6.39")
    kernel, initrd = os.path.join(d, "kernel.elf"), os.path.join(d, "initrd.cpio")
    name = "era[2.6.39 build has no lock_kernel(): bklsurvey says 0]"
    if h.wanted(name):
        problems = []
        if not os.path.exists(kernel):
            problems.append(f"{os.path.relpath(kernel, h.ROOT)} is missing (make ERA=2.6.39; make test builds it)")
        else:
            nm = subprocess.run(["nm", kernel], capture_output=True, text=True).stdout
            left = re.findall(r"^\S+ \S (lock_kernel_site|unlock_kernel_site|bkl_site_\.\d+|kernel_flag|kernel_sem)$",
                              nm, re.M)
            if left:
                problems.append("still built in: " + ", ".join(sorted(set(left))))
            r = subprocess.run([os.path.join(h.ROOT, "tools", "build", "bklsurvey"), "--elf", kernel],
                               capture_output=True, text=True, timeout=60)
            if r.returncode != 0 or not re.search(r"^0 lock_kernel\(\) call sites in smpix built without the BKL",
                                                  r.stdout, re.M) or "check: the 0 sites" not in r.stdout:
                problems.append(f"bklsurvey --elf: exit {r.returncode}: {r.stdout[-300:]!r}")
        h.record(name, not problems, "; ".join(problems))
    if not os.path.exists(kernel):
        return
    era_boot(h, "2.6.39", kernel=kernel, initrd=initrd, ioctl_mode="unlocked", syscalls="# no BKL")
    h.boot_check("era-2.6.8-needs-a-bkl", [r"^era: era=2\.6\.8 needs a kernel with the BKL"],
                 append="era=2.6.8", kernel=kernel, initrd=initrd)


def run(h):
    for era, (mode, syscalls) in ERAS.items():
        era_boot(h, era, ioctl_mode=mode, syscalls=syscalls)
    # 2.2's read() under the BKL, counted at the dispatcher's site (every other ktest boot: not).
    h.ktests("era-2.2-smp2", tests="syscall_bkl_flag_takes_the_bkl", cpus=2, append="era=2.2", min_count=1)
    # 2.6.8's BKL at 1 CPU (holder, waiter and the rest share it: the reacquire inside schedule()
    # sleeps there) and at 2; the same two tests in every other ktest boot check the opposite.
    h.ktests("era-2.6.8-smp1", tests=SEM_KTESTS, cpus=1, append="era=2.6.8", min_count=10)
    h.ktests("era-2.6.8-smp2", tests=SEM_KTESTS, cpus=2, append="era=2.6.8", min_count=10)
    # Every call under the semaphore, at 4 CPUs: each sleep in a call is an up() in schedule() and a
    # down() at its end, which may sleep again; the fuzzer's calls sleep, fault and are killed.
    h.fuzz("era-2.6.8-bkl-syscalls-smp4", seconds=10, seed=9, cpus=4, append="era=2.6.8 bkl=syscalls")
    # A kernel with the BKL cannot take it out at boot: it says what to build instead.
    # A word that names no era: said so, with the eras there are, and the kernel stays at its default.
    h.boot_check("era-unknown", [r"^era: unknown era=2\.3 \(want 2\.0, 2\.2, 2\.4, 2\.6\.6, 2\.6\.8, 2\.6\.11 "
                                 r"or 2\.6\.39\); staying at 2\.6\.11$", r"^smp: \d+ CPUs online"], append="era=2.3")
    h.boot_check("era-2.6.39-needs-its-build",
                 [r"^era: era=2\.6\.39 needs the kernel built without the BKL: make ERA=2\.6\.39"],
                 append="era=2.6.39")
    no_bkl_build(h)
