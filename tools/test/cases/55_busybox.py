"""A session of Debian's busybox-static (i386, unmodified) on smpix's shell: boot the initrd that
`make BUSYBOX=1` builds (build/initrd-busybox.cpio), type everyday commands with busybox's applets
(by name, or through PATH where smpix has no tool of that name; mount -o remount,ro and back among
them), check what they print, and fail on any system call the kernel had to answer -ENOSYS. Then
busybox's top, ps, uptime (and mpstat, where Debian builds it) beside smpix's own while two workers fight
for the BKL: they read the same /proc files (docs/time.md) and must show the same numbers. Skipped, with
the reason, when busybox could not be fetched (Makefile: busybox-maybe, which leaves the reason in
build/busybox.unavailable)."""
import os
import re
import time

from testlib import Session

ENOSYS = re.compile(r"^pid \d+ \((\S+)\): syscall \d+ \((\S+)\) is not implemented: -ENOSYS$", re.M)


# (what the check proves, the line typed, a regex the whole output must match)
STEPS = [
    ("PATH: smpix's tools, then busybox's applets", "echo $PATH",
     r"/bin:/sbin:/usr/lib/busybox/bin\n"),
    ("ls", "busybox ls /", r"bin\s+dev\s+etc\s+mnt\s+proc\s+sbin\s+(tests\s+)?tmp\s+usr\s*\n"),
    ("cat (sendfile64)", "busybox cat /etc/motd", r"Welcome to smpix\.\n"),
    ("sed, found on PATH", "sed 's/smpix/SMPIX/' /etc/motd", r"Welcome to SMPIX\.\n"),
    ("awk", "busybox seq 1 10 | awk '{ s += $1 } END { print s }'", r"55\n"),
    ("find", "find /etc -name 'mo*'", r"/etc/motd\n"),
    ("xargs", "echo /etc/motd /etc/shtest.sh | xargs busybox wc -l",
     r"\s*1 /etc/motd\n\s*\d+ /etc/shtest.sh\n\s*\d+ total\n"),
    ("sort", "busybox printf '10\\n9\\n100\\n' | busybox sort -n", r"9\n10\n100\n"),
    ("cp, mv, rm",
     "busybox cp /etc/motd /tmp/a; busybox mv /tmp/a /tmp/b; busybox cat /tmp/b; busybox rm /tmp/b; busybox ls /tmp",
     r"Welcome to smpix\.\n"),
    ("touch (utimensat)", "busybox touch -d '2001-09-09 01:46:40' /tmp/f; busybox stat -c '%Y %s' /tmp/f",
     r"1000000000 0\n"),
    ("df (statfs64)", "busybox df /proc /tmp/p 2>&1 | busybox head -n 2",
     r"Filesystem\s+1K-blocks\s+Used\s+Available\s+Use% Mounted on\n"
     r"proc\s+0\s+0\s+0\s+0% /proc\n"),
    ("id (getgroups32)", "busybox id", r"uid=0\(root\) gid=0\(root\)( groups=\S*)?\n"),
    ("mount -t proc", "busybox mkdir /tmp/p; busybox mount -t proc proc /tmp/p; busybox mount | busybox grep /tmp/p",
     r"proc on /tmp/p type proc \(rw,relatime\)\n"),
    ("a second procfs works", "busybox cat /tmp/p/self/cmdline | busybox tr '\\0' ' '; echo",
     r"busybox cat /tmp/p/self/cmdline \n"),
    ("umount", "busybox umount /tmp/p; busybox ls /tmp/p; busybox rmdir /tmp/p; echo gone",
     r"gone\n"),
    ("mount -t tmpfs, files inside, umount",
     "busybox mkdir /tmp/t; busybox mount -t tmpfs none /tmp/t; echo hi > /tmp/t/f; busybox cat /tmp/t/f; "
     "busybox umount /tmp/t; busybox ls -A /tmp/t; echo empty",
     r"hi\nempty\n"),
    ("mount -t devtmpfs", "busybox mount -t devtmpfs dev /tmp/t; busybox ls /tmp/t | busybox grep -x null; "
     "busybox umount /tmp/t", r"null\n"),
    # A tmpfs (smpix's ramfs) read-only and back: busybox's mount -o remount makes mount(2)'s MS_REMOUNT call.
    ("mount -o remount,ro and remount,rw",
     "busybox mount -t tmpfs none /tmp/t; echo a > /tmp/t/f; busybox mount -o remount,ro /tmp/t; "
     "busybox grep /tmp/t /proc/mounts; busybox touch /tmp/t/g; busybox rm -f /tmp/t/f; "
     "busybox mount -o remount,rw /tmp/t; busybox grep /tmp/t /proc/mounts; echo b >> /tmp/t/f; "
     "busybox cat /tmp/t/f; busybox umount /tmp/t",
     r"none /tmp/t tmpfs ro,relatime 0 0\ntouch: /tmp/t/g: Read-only file system\n"
     r"rm: can't remove '/tmp/t/f': Read-only file system\n"
     r"none /tmp/t tmpfs rw,relatime 0 0\na\nb\n"),
    ("ps", "busybox ps", r"PID\s+USER\s+(TIME\s+)?COMMAND\n(.*\n)*\s*1 root .*init\n(.*\n)*.*busybox ps\n"),
    ("dmesg | head", "busybox dmesg | busybox head -n 1", r"\[\s*0\.0+\] smpix .*\n"),
    ("date", "busybox date -u +%Y-%m-%d", r"20\d\d-\d\d-\d\d\n"),
    ("uname", "busybox uname -sm", r"smpix i686\n"),
    ("background jobs and wait", "busybox sleep 1 & busybox sleep 1 & wait; echo both",
     r"\[1\] \d+\n\[2\] \d+\n(\[\d\] Done\n)*both\n"),
    # ash says "Terminated" when its wait, rather than an earlier SIGCHLD, reaps the job: timing, on Linux too.
    ("busybox's own shell", "busybox sh -c 'busybox sleep 30 & busybox kill $!; wait $!; echo status=$?'",
     r"(Terminated\n)?status=143\n"),
]


# busybox top's "CPU:  3% usr  96% sys   0% nic   0% idle   0% io   0% irq   0% sirq" (shares of all CPUs'
# ticks, steal counted in the total as smpix's top counts it), and its "PID PPID USER STAT VSZ %VSZ %CPU COMMAND" lines.
BB_CPU = re.compile(r"^CPU:\s+(\d+)% usr\s+(\d+)% sys\s+\d+% nic\s+(\d+)% idle", re.M)
BB_TASK = re.compile(r"^\s*(\d+)\s+\d+ root\s+(\S+)\s+\d+\s+\d+%\s+(\d+)% (\S+)", re.M)
# smpix's top: "all  %usr %sys %spin %bkl %irq %iowait %steal %idle" and "  PID CPU S  %CPU  %BKL      TIME COMMAND".
OUR_ALL = re.compile(r"^all" + r"\s+(\d+\.\d)" * 8 + r"$", re.M)
OUR_TASK = re.compile(r"^\s*(\d+)\s+\d+ ([A-Z])\s+(\d+\.\d)\s+(\d+\.\d)\s+\S+ (\S+)$", re.M)
LOADS = re.compile(r"(\d+\.\d\d),? (\d+\.\d\d),? (\d+\.\d\d)")


def check_top(h, s, name):
    """busybox top and smpix's top, one after the other: both see the system busy in the kernel, and the
    same two workers busy. busybox's %CPU is a share of all CPUs (so at most 50% each at -smp 2), smpix's
    of one CPU (as procps top): 100% each."""
    bb = s.run("busybox top -b -n 1", timeout=30) or ""
    ours = s.run("top -b -n 1", timeout=30) or ""
    cpu, our_cpu = BB_CPU.search(bb), OUR_ALL.search(ours)
    why = ""
    if not cpu or not our_cpu:
        why = f"no CPU line in {bb!r} or no 'all' line in {ours!r}"
    else:
        # Busy is all but idle (and iowait, 0 here) in both. Not sys alone: the host's steal comes in
        # bursts, and busybox top measures a tenth of a second, smpix's a whole one, one after the other.
        bb_sys, bb_busy = int(cpu.group(2)), 100 - int(cpu.group(3))
        our = [float(x) for x in our_cpu.groups()]
        our_sys, our_busy = our[1], 100 - our[7] - our[5]
        if bb_sys < 40 or our_sys < 40:
            why = f"sys: busybox top {bb_sys}%, smpix's top {our_sys}%: not both mostly sys"
        elif bb_busy < 80 or our_busy < 80 or abs(bb_busy - our_busy) > 15:
            why = f"busy: busybox top {bb_busy}%, smpix's top {our_busy:.1f}%: not both busy alike"
    h.record(f"{name}[busybox top and smpix's top: the CPUs busy, in sys, alike]", not why, why + f"\n{bb}\n{ours}")
    bb_busy = {m.group(1) for m in BB_TASK.finditer(bb) if m.group(4) == "ioctlbench" and int(m.group(3)) >= 20}
    our_busy = {m.group(1) for m in OUR_TASK.finditer(ours) if m.group(5) == "ioctlbench" and float(m.group(3)) >= 40}
    h.record(f"{name}[busybox top and smpix's top: the same two workers busy]",
             len(bb_busy) == 2 and bb_busy == our_busy, f"busybox {sorted(bb_busy)}, smpix {sorted(our_busy)}")


def check_ps(h, s, name):
    bb = s.run("busybox ps -o pid,stat,comm", timeout=30) or ""
    ours = s.run("ps", timeout=30) or ""
    bb_pids = set(re.findall(r"^\s*(\d+) \S+\s+ioctlbench$", bb, re.M))
    our_pids = set(re.findall(r"^\s*(\d+) .* ioctlbench$", ours, re.M))
    h.record(f"{name}[busybox ps and smpix's ps: the same three ioctlbench processes]",
             len(bb_pids) == 3 and bb_pids == our_pids, f"busybox {bb!r}, smpix {ours!r}")


def check_uptime(h, s, name):
    """busybox uptime's load average (from sysinfo()) is /proc/loadavg's. Read around it: it may tick between."""
    out = s.run("cat /proc/loadavg; busybox uptime; cat /proc/loadavg", timeout=30) or ""
    found = LOADS.findall(out)
    if len(found) != 3:
        h.record(f"{name}[busybox uptime: the load average]", False, f"got {out!r}")
        return
    first, bb, last = found
    # load_freq=5 takes a sample every 50 ms: between the three reads the averages may move a little.
    near = all(min(float(a), float(c)) - 0.3 <= float(b) <= max(float(a), float(c)) + 0.3
               for a, b, c in zip(first, bb, last))
    h.record(f"{name}[busybox uptime: the load average is /proc/loadavg's]", near and float(bb[0]) > 0.5,
             f"got {out!r}")


def check_mpstat(h, s, name):
    out = s.run("busybox mpstat -P ALL 1 1", timeout=30) or ""
    if "applet not found" in out:
        h.skip(f"{name}[busybox mpstat]", "Debian's busybox-static is built without mpstat")
        return
    rows = re.findall(r"^\S+\s+(?:all|\d+)\s+.*$", out, re.M)
    h.record(f"{name}[busybox mpstat: a line for all and for each CPU]", len(rows) >= 3, f"got {out!r}")


def check_time_tools(h, s, name):
    """Two ioctlbench workers fight for the BKL while busybox's tools and smpix's look."""
    out = s.run("ioctlbench -d bkl -p 2 -n 1000000 -w 20000 -r 1 > /dev/null &", timeout=30)
    job = re.search(r"\[\d+\] (\d+)", out or "")
    h.record(f"{name}[the BKL benchmark starts in the background]", job is not None, f"got {out!r}")
    if not job:
        return
    s.run("sleep 2", timeout=30)        # the workers start; the load average (load_freq=5) climbs
    check_top(h, s, name)
    check_ps(h, s, name)
    check_uptime(h, s, name)
    check_mpstat(h, s, name)
    out = s.run(f"kill -TERM -{job.group(1)}; wait; echo stopped", timeout=30)
    h.record(f"{name}[the benchmark stops]", out is not None and out.endswith("stopped\n"), f"got {out!r}")


def check_ash_jobctl(h, s, name):
    """busybox's own interactive shell (ash) does job control on smpix's tty as on Linux: ^Z stops its
    foreground job ("Stopped"), jobs lists it, fg continues it in front, ^C ends it (docs/signals.md)."""
    ash = re.compile(r"^ash> ", re.M)
    start = len(s.q.output)
    s.q.send("PS1='ash> ' busybox sh\r")
    steps, m = [], s.wait_for(ash, start, 30)
    for keys, want in (("busybox sleep 30\r", None), ("\x1a", r"Stopped\s+busybox sleep 30"),
                       ("jobs\r", r"\[1\]\+\s+Stopped\s+busybox sleep 30"), ("fg\r", None),
                       ("\x03", r"busybox sleep 30")):
        if not m:
            break
        pos = len(s.q.output)
        s.q.send(keys)
        if want is None:                # started: give it the terminal before the next key
            time.sleep(1)
            continue
        m = s.wait_for(ash, pos, 30)
        steps.append(m is not None and re.search(want, s.q.output[pos:m.start()]) is not None)
    h.record(f"{name}[busybox sh: ^Z stops the job, jobs lists it, fg and ^C end it]",
             len(steps) == 3 and all(steps), f"got {s.q.output[start:][-400:]!r}")
    pos = len(s.q.output)
    s.q.send("exit\r")
    s.wait_for(re.compile(r"^\$ ", re.M), pos, 30)


def run(h):
    name = "busybox"
    if not h.wanted(name):
        return
    initrd = os.path.join(h.BUILD, "initrd-busybox.cpio")
    if not os.path.exists(initrd):
        why = "build/initrd-busybox.cpio is missing (make BUSYBOX=1 qemu builds it)"
        reason = os.path.join(h.BUILD, "busybox.unavailable")
        if os.path.exists(reason):
            with open(reason) as f:
                lines = [l.strip() for l in f if l.strip()]
            if lines:
                why = "Debian's busybox-static could not be fetched: " + lines[-1]
        h.skip(f"{name}[session]", why)
        return
    # load_freq=5: the load average's minute passes in 0.6 s (docs/time.md), for uptime's check.
    s = Session(h, "busybox-session", initrd=initrd, timeout=240, boot_timeout=90, append="load_freq=5")
    h.record(f"{name}[boot to the shell]", s.ok, "no '$ ' prompt")
    if not s.ok:
        s.q.kill()
        return
    for what, line, want in STEPS:
        out = s.run(line, timeout=30)
        ok = out is not None and re.fullmatch(want, out) is not None
        h.record(f"{name}[{what}]", ok, f"typed {line!r}, got {out!r}")
    check_time_tools(h, s, name)
    check_ash_jobctl(h, s, name)
    # kill from smpix's shell: the job's pid is in its "[1] PID" line.
    out = s.run("busybox sleep 30 &", timeout=30)
    m = re.search(r"\[\d+\] (\d+)", out or "")
    killed = s.run(f"busybox kill {m.group(1)}; wait; echo waited", timeout=30) if m else None
    h.record(f"{name}[kill a background job]", killed is not None and killed.endswith("waited\n"),
             f"got {out!r} then {killed!r}")
    s.q.send("poweroff\r")
    s.q.wait_exit()
    out = s.q.output
    missing = sorted(set(f"{call} (from {prog})" for prog, call in ENOSYS.findall(out)))
    h.record(f"{name}[every call answered: no -ENOSYS]", not missing, "unimplemented: " + ", ".join(missing))
    problems = []
    if s.q.exit_code != 0:
        problems.append(f"QEMU exit status {s.q.exit_code}")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    h.record(f"{name}[poweroff]", not problems, "; ".join(problems))
