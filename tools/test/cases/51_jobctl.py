"""Job control at the smpix shell, as a person at the console does it (docs/signals.md, "Stopping and
job control"): ^Z (byte 0x1a) stops the job in front and the shell says "[1]+  Stopped", with $?
128 + SIGTSTP; jobs lists it; bg continues it in the background, fg brings it back to the terminal
(^Z again, then ^C ends it); a background `cat` that reads the terminal is stopped by SIGTTIN and
the shell says so at the next prompt, and fg lets it read what is typed; a background job that
ends is announced as Done. One boot at -smp 2. The kernel's side is jobtest (45_jobs.py)."""
import re
import time

from testlib import Session, check

PROMPT = re.compile(r"^\$ ", re.M)


def job_specs(h, s, name):
    """Two stopped jobs named apart by %string, %?string and %-, listed by jobs -l and -p, as bash."""
    type_then_keys(s, "sleep 30", ["\x1a"])
    type_then_keys(s, "sleep 31", ["\x1a"])
    out = s.run("jobs -l") or ""
    check(h, f"{name}: jobs -l: number, +/- marks, pid, state, command", out,
          r"^\[(\d+)\]-\s+(\d+) Stopped\s+sleep 30\n\[(\d+)\]\+\s+(\d+) Stopped\s+sleep 31$")
    pids = re.findall(r"^\[\d+\][-+]\s+(\d+) ", out, re.M)
    check(h, f"{name}: jobs -p: the same pids", s.run("jobs -p"), "^" + r"\n".join(pids) + "$" if pids else "^never$")
    check(h, f"{name}: fg %sleep is ambiguous", s.run("fg %sleep"), r"ambiguous job spec")
    check(h, f"{name}: bg %?31 continues the one whose command has 31", s.run("bg %?31"), r"^\[\d+\]\+ sleep 31 &$")
    out = type_then_keys(s, "fg %-", ["\x03"])
    check(h, f"{name}: fg %- brings the previous job (sleep 30); ^C ends it", out, r"^sleep 30\n(\^C)?\n*$")
    out = type_then_keys(s, "fg \"%sleep 31\"", ["\x03"])
    check(h, f"{name}: fg %string brings the one whose command starts so; ^C ends it", out,
          r"^sleep 31\n(\^C)?\n*$")
    check(h, f"{name}: no jobs left", s.run("jobs"), r"^$")


def terminal_modes(h, s, name):
    """A job that turned echo off and stopped: the shell reads with echo on again; fg gives the job
    its settings back (what is typed to it is not echoed); ^C kills it and the shell's come back."""
    job = 'sh -c "stty -echo; sleep 30"'
    out = type_then_keys(s, job, ["\x1a"])
    check(h, f"{name}: a job that turned echo off stops", out, r"Stopped")
    check(h, f"{name}: after its ^Z the shell's settings are back (typed lines echo)", s.run("stty -a"),
          r"(?<![-\w])echo(?![\w])")
    out = type_then_keys(s, "fg", ["typed-to-job", "\x03"])
    check(h, f"{name}: fg gives the job its own settings (echo off: nothing typed shows)",
          None if out is None else ("echoed: " + out if "typed-to-job" in out else "ok"), r"^ok$")
    check(h, f"{name}: after ^C killed it the shell's settings are back", s.run("echo again"), r"^again$")


def prompt_until_stopped(s, tries=20):
    """echo next at the prompt until the shell says a job stopped (cat & must first start and read,
    which takes longer on a loaded host): that output, or the last one."""
    out = None
    for _ in range(tries):
        out = s.run("echo next")
        if out is None or "Stopped" in out:
            break
        time.sleep(0.25)
    return out


def type_then_keys(s, line, keys, wait=1.0, timeout=20):
    """Type line, let it start (wait seconds: it has the terminal by then), then send each of keys
    half a second apart: the output from the line's echo to the next prompt, or None."""
    if not s.ok:
        return None
    start = len(s.q.output)
    s.q.send(line + "\r")
    echo = s.wait_for(re.compile(re.escape(line) + r"\n"), start, timeout)
    if not echo:
        return None
    time.sleep(wait)
    for i, key in enumerate(keys):
        if i:
            time.sleep(0.5)
        s.q.send(key)
    m = s.wait_for(PROMPT, echo.end(), timeout)
    return s.q.output[echo.end():m.start()] if m else None


def run(h):
    name = "shell job control"
    if not any(h.wanted(f"{name}{x}") for x in ("", " ")):
        return
    s = Session(h, "jobctl", cpus=2, timeout=120)
    out = type_then_keys(s, "sleep 30", ["\x1a"])
    check(h, f"{name}: ^Z stops the job, [1]+ Stopped", out, r"^\[1\]\+\s+Stopped\s+sleep 30$")
    check(h, f"{name}: $? after ^Z is 128+SIGTSTP", s.run("echo $?"), r"^148$")
    check(h, f"{name}: jobs lists the stopped job", s.run("jobs"), r"^\[1\]\+\s+Stopped\s+sleep 30$")
    check(h, f"{name}: bg continues it in the background", s.run("bg"), r"^\[1\]\+ sleep 30 &$")
    check(h, f"{name}: jobs shows it Running", s.run("jobs"), r"^\[1\]\+\s+Running\s+sleep 30 &$")
    out = type_then_keys(s, "fg %1", ["\x1a"])
    check(h, f"{name}: fg brings it back; ^Z stops it again", out, r"^sleep 30\n(\^Z)?\n\[1\]\+\s+Stopped\s+sleep 30$")
    check(h, f"{name}: fg again, ^C ends it", type_then_keys(s, "fg", ["\x03"]), r"^sleep 30\n(\^C)?\n*$")
    check(h, f"{name}: jobs empty after the end", s.run("jobs"), r"^$")
    out = s.run("cat &")
    check(h, f"{name}: cat & announced", out, r"^\[1\] \d+$")
    check(h, f"{name}: background reader stopped by SIGTTIN, said at the prompt", prompt_until_stopped(s),
          r"^next\n\[1\]\+\s+Stopped \(tty input\)\s+cat$|^\[1\]\+\s+Stopped \(tty input\)\s+cat\nnext$")
    check(h, f"{name}: fg lets the reader read; ^D ends it", type_then_keys(s, "fg", ["hello-fg\r", "\x04"]), r"^cat\nhello-fg\nhello-fg\n$")
    s.run("sleep 1 &")
    time.sleep(1.5)
    check(h, f"{name}: a finished background job is announced Done", s.run("echo x"), r"^x\n\[1\] Done$|^\[1\] Done\nx$")
    job_specs(h, s, name)
    terminal_modes(h, s, name)
    problems = s.power_off()
    h.record(f"{name}: power off", not problems, "; ".join(problems))

