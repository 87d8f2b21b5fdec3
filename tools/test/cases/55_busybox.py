"""A session of Debian's busybox-static (i386, unmodified) on smpix's shell: boot the initrd that
`make BUSYBOX=1` builds (build/initrd-busybox.cpio), type everyday commands with busybox's applets
(by name, or through PATH where smpix has no tool of that name), check what they print, and fail
on any system call the kernel had to answer -ENOSYS. Skipped, with the reason, when busybox could
not be fetched (Makefile: busybox-maybe, which leaves the reason in build/busybox.unavailable)."""
import os
import re

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
     r"proc on /tmp/p type proc \(rw\)\n"),
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
    s = Session(h, "busybox-session", initrd=initrd, timeout=240, boot_timeout=90)
    h.record(f"{name}[boot to the shell]", s.ok, "no '$ ' prompt")
    if not s.ok:
        s.q.kill()
        return
    for what, line, want in STEPS:
        out = s.run(line, timeout=30)
        ok = out is not None and re.fullmatch(want, out) is not None
        h.record(f"{name}[{what}]", ok, f"typed {line!r}, got {out!r}")
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
