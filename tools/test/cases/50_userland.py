"""Userland: boot to /sbin/init's shell, type commands as a person would, run a script, power off;
usertests from the shell and as init."""
import re
import time
from testlib import PROMPT, Session, check  # noqa: F401


def shell_session(h):
    name = "shell"
    if not h.wanted(name):
        return
    s = Session(h, "shell", cpus=2, timeout=150)
    h.record("shell[init starts /bin/sh: prompt]", s.ok, "no '$ ' prompt")
    if not s.ok:
        s.q.kill()
        return
    check(h, "shell[echo]", s.run("echo hello world"), "hello world\n", exact=True)
    check(h, "shell[pipeline of 4]", s.run("echo c b a | grep b | wc -w | cat"), r"^\s*3\n$")
    check(h, "shell[> and <]", s.run("echo first > /tmp/x; echo second >> /tmp/x; cat < /tmp/x"),
          "first\nsecond\n", exact=True)
    check(h, "shell[2> and 2>&1]", s.run("ls /nope 2> /tmp/err; cat /tmp/err; ls /nope 2>&1 | wc -l"),
          r"^ls: /nope: No such file or directory\n\s*1\n$")
    check(h, "shell[not found: message, status 127]", s.run("nosuch arg; echo status=$?"),
          "sh: nosuch: not found\nstatus=127\n", exact=True)
    check(h, "shell[; && || $?]", s.run("false && echo no; true && echo yes || echo no; false || echo or"),
          "yes\nor\n", exact=True)
    # Unquoted, $W is split into fields at the blanks, as in any POSIX shell.
    check(h, "shell[variables, export, quoting]",
          s.run("V='a  b'; export W=\"$V!\"; echo \"$V\" '$V' $W; env | grep '^W='"),
          "a  b $V a b!\nW=a  b!\n", exact=True)
    check(h, "shell[NAME=value before a command: its environment only]",
          s.run("ONLY=here env | grep ONLY; echo \"[$ONLY]\""), "ONLY=here\n[]\n", exact=True)
    check(h, "shell[cd, comment]", s.run("mkdir /tmp/dir; cd /tmp/dir # echo hidden"), "", exact=True)
    check(h, "shell[cd: relative paths]", s.run("cd ..; ls"), "dir\nerr\nx\n", exact=True)
    out = s.run("sleep 1 & echo started")
    check(h, "shell[background job in its own group]", out, r"^\[1\] \d+\nstarted\n")
    check(h, "shell[background job finishes]", s.run("wait; echo waited"), r"waited\n")
    out = s.run("sleep 3 & ps")
    ok = out is not None
    if ok:
        # The job ([1] PID) is sleep, or still the shell's child on its way to exec it: either
        # way it must lead a group of its own, not its parent's (the shell's).
        job = re.search(r"^\[1\] (\d+)$", out, re.M)
        rows = {m.group(1): m for m in re.finditer(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+\d+ \S\s+\S+ (\S+)$", out, re.M)}
        row = rows.get(job.group(1)) if job else None
        parent = rows.get(row.group(2)) if row else None
        ok = bool(row and parent and row.group(4) in ("sleep", "sh") and row.group(3) == row.group(1)
                  and parent.group(4) == "sh" and parent.group(3) != row.group(3))
    h.record("shell[ps: the job leads its own process group]", ok, f"got {out!r}")
    s.run("wait")
    check(h, "shell[script: sh FILE]", s.run("sh /etc/shtest.sh A; echo status=$?"),
          r"^script: arg1=A args=/etc/shtest.sh\nquoted: hello   world \$greeting \$greeting\ncd: ok\n"
          r"two\nthree\n\s*3\n2\ntest -f: yes\ntest -d: no\nls status: 1\n\s*1 err\n1\n"
          r"SHTEST_VAR=exported\ncleanup: ok\nstatus=3\n$")
    # Not `| head -n 1`: the script's echo is a builtin, so a reader that stops early ends the
    # script itself with SIGPIPE (as in dash or bash), perhaps before it cleans up.
    check(h, "shell[script: #!/bin/sh]", s.run("/etc/shtest.sh B > /tmp/out; head -n 1 /tmp/out; rm /tmp/out"),
          "script: arg1=B args=/etc/shtest.sh\n", exact=True)
    check(h, "shell[tools: usage on bad arguments]", s.run("ls -z; echo s=$?; kill; echo s=$?"),
          r"usage: ls.*\ns=2\nusage: kill.*\ns=2\n")
    check(h, "shell[tools: cp mv ln rm]",
          s.run("cd /tmp; echo data > a; cp a b; mv b c; ln c d; ln -s c e; cat d e; rm a c d e; ls"),
          "data\ndata\ndir\nerr\nx\n", exact=True)
    check(h, "shell[mkfifo: a named pipe between two jobs]",
          s.run("mkfifo -m 600 ff; ls -l ff; echo via-fifo > ff & cat ff; wait; rm ff; ls"),
          # The shell may reap the writer (and say Done) before cat has written what it read.
          r"^prw------- .* ff\n\[1\] \d+\n(\[1\] Done\nvia-fifo\n|via-fifo\n(\[1\] Done\n)?)dir\nerr\nx\n$")
    check(h, "shell[cpus]", s.run("cpus"), r"^cpu 0: apic id 0\ncpu 1: apic id 1\n2 CPUs online\n$")
    check(h, "shell[dmesg]", s.run("dmesg | grep -c 'smp: 2 CPUs online$'"), r"^[1-9]\d*\n$")
    check(h, "shell[bklstat]", s.run("bklstat -r; bklstat -t -n 1"),
          r"counters reset\n(.|\n)*sorted by hold time")
    check(h, "shell[for, case, functions, $(( )), $( )]",
          s.run("f() { case $1 in a*) echo \"$1: $(($2 * 2))\";; *) echo other;; esac; }; "
                "for w in ab cd; do f $w 21; done; echo \"[$(f x)]\""),
          "ab: 42\nother\n[other]\n", exact=True)
    typed_over_lines(h, s)
    check(h, "shell[a syntax error names its line and the shell goes on]", s.run("echo a; fi; echo $?"),
          r'^/bin/sh: \d+: Syntax error: "fi" unexpected\n$')
    check(h, "shell[... with status 2]", s.run("echo $?"), "2\n", exact=True)
    check(h, "shell[exit: init starts the shell again]", s.run("exit 5"), r"^$")
    check(h, "shell[the new shell works]", s.run("echo again"), "again\n", exact=True)
    interrupt(h, s)
    problems = s.power_off()
    h.record("shell[poweroff: QEMU exits with status 0]", not problems, "; ".join(problems))


def typed_over_lines(h, s):
    """A loop typed on three lines: the shell asks for the rest with $PS2 ("> ") and runs it whole."""
    pos = len(s.q.output)
    for line in ("for i in 1 2", "do echo \"line $i\"", "done"):
        at = len(s.q.output)
        s.q.send(line + "\r")
        m = s.wait_for(re.compile(r"^> $" if line != "done" else PROMPT.pattern, re.M), at, 10)
    out = s.q.output[pos:m.start()] if m else s.q.output[pos:]
    h.record("shell[a loop typed over several lines, with the $PS2 prompt]",
             m is not None and out.endswith("> done\nline 1\nline 2\n"), f"got {out!r}")


def interrupt(h, s):
    """^C on a running sleep ends the job and not the shell: needs the tty line discipline with ISIG."""
    name = "shell[^C stops the foreground sleep, not the shell]"
    out = s.run("stty -a")
    if out is None or "Not a typewriter" in out:
        h.skip(name, "waiting for the tty driver (drivers/, the lead's branch): /dev/console answers "
                     "TCGETS with ENOTTY, so there is no ^C to send")
        return
    start = time.monotonic()
    pos = len(s.q.output)
    s.q.send("sleep 30\r")
    s.wait_for(re.compile(r"sleep 30\n"), pos, 10)
    time.sleep(1)
    pos = len(s.q.output)
    s.q.send("\x03")
    m = s.wait_for(PROMPT, pos, 10)
    ok = m is not None and time.monotonic() - start < 15
    out = s.run("echo $?")
    h.record(name, ok and out == "130\n", f"after ^C: {s.q.output[pos:][:80]!r}, $? {out!r}")
    # ^C ends the command line it hit, not just the command: a loop does not go on to its next turn.
    pos = len(s.q.output)
    s.q.send("for i in 1 2 3; do sleep 2; echo turn $i; done; echo after\r")
    s.wait_for(re.compile(r"echo after\n"), pos, 10)
    time.sleep(1)
    s.q.send("\x03")
    m = s.wait_for(PROMPT, pos + 10, 10)
    out = s.q.output[pos:m.start()] if m else s.q.output[pos:]
    rest = out.split("\n", 1)[-1]
    h.record("shell[^C stops a loop, not just its sleep]", m is not None and "turn" not in rest and "after" not in rest,
             f"got {out!r}")


USERTESTS_LINE = re.compile(r"^usertests: (\S+) (ok|FAIL)(.*)$", re.M)
USERTESTS_SUMMARY = re.compile(r"^usertests: (\d+) passed, (\d+) failed$", re.M)


def usertests(h, label, cpus, timeout=300):
    """Type `usertests` at the shell: one line per test, the free pages back, then poweroff."""
    name = f"usertests[{label}]"
    if not h.wanted(name):
        return
    s = Session(h, f"usertests-{label}", cpus=cpus, timeout=timeout)
    out = s.run("usertests", timeout=timeout - 30) if s.ok else None
    if out is None:
        h.record(f"{name} run", False, "no prompt" if not s.ok else "no prompt after usertests (timeout?)")
        s.q.kill()
        return
    results = USERTESTS_LINE.findall(out)
    for test, status, rest in results:
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    m = USERTESTS_SUMMARY.search(out)
    if not m:
        problems.append("no summary line")
    elif int(m.group(1)) != len([r for r in results if r[1] == "ok"]) or int(m.group(1)) < 20:
        problems.append(f"summary says {m.group(0)!r} with {len(results)} lines")
    if "free_pages" not in [r[0] for r in results]:
        problems.append("no free-page check")
    if s.run("echo still here") != "still here\n":
        problems.append("the shell did not survive")
    problems += s.power_off()
    h.record(f"{name} summary, shell survives, poweroff", not problems, "; ".join(problems))


INIT_EXIT = r"init \(pid \d+\) exited with status 0x([0-9a-f]+)"


def usertests_as_init(h, label, cpus, mem, timeout=300):
    """init=/bin/usertests: the suite as the first process, which every orphan the tests make
    comes to (make qemu APPEND=init=/bin/usertests CPUS=4 MEM=256 once ended "24 passed,
    2 failed": the orphans stayed zombies). As from the shell, and the free pages back."""
    name = f"usertests[{label}]"
    if not h.wanted(name):
        return
    q = h.Qemu(f"usertests-{label}", append="init=/bin/usertests", cpus=cpus, mem=mem, timeout=timeout)
    q.expect(INIT_EXIT)
    q.wait_exit()
    out = q.output
    results = USERTESTS_LINE.findall(out)
    for test, status, rest in results:
        h.record(f"{name} {test}", status == "ok", rest.strip())
    problems = []
    m = USERTESTS_SUMMARY.search(out)
    if not m:
        problems.append("no summary line" + (" (timeout)" if q.timed_out else ""))
    elif m.group(2) != "0" or int(m.group(1)) < 20:
        problems.append(f"summary says {m.group(0)!r}")
    if not re.search(r"^usertests: starting as pid 1,", out, re.M):
        problems.append("it did not run as pid 1")
    if "free_pages" not in [r[0] for r in results]:
        problems.append("no free-page check")
    m = re.search(INIT_EXIT, out, re.M)
    if not m or int(m.group(1), 16) != 0:
        problems.append("init did not exit with status 0")
    if h.bad_lines(out):
        problems.append("kernel reported: " + h.bad_lines(out)[0])
    if q.exit_code != 0:
        problems.append(f"QEMU exit status {q.exit_code}")
    h.record(f"{name} as pid 1: summary, power off", not problems, "; ".join(problems))


def run(h):
    shell_session(h)
    usertests(h, "smp1", cpus=1)
    # At 4 CPUs as init, with the memory the issue used: the shell run above shows the shell
    # survives the suite; this one that the suite needs no shell (and no init) to pass.
    usertests_as_init(h, "smp4-init-mem256", cpus=4, mem=256)
