"""Typeahead after ^C on the serial console: what is typed after a ^C belongs to the next command.

A person at the console types `sleep 30`, ^C a second later, then `echo survived-ctrl-c` and
`nosuchcmd`: one key every 2 ms, `\\n` at the end of each line, each line the moment the prompt is
back, no pause. As on Linux, the ^C is echoed ("^C", ECHOCTL) when the tty receives it, so before
the prompt the shell prints once its job has died; and every line after it runs, the last one to
its "not found". Then both lines pasted in one burst with the ^C, all in before the shell can
react: Linux's n_tty flushes the input at the INTR character itself (NOFLSH clear), so what comes
after it is kept, and the shell runs it once it is back. At -smp 1 and 4.

(This was reported as lost typeahead: `nosuchcmd` never ran, and the ^C came after the prompt.
The kernel was right; the report's tool, qsession.py, waited at its `sleep:1` step until its own
deadline, so it typed the ^C after `sleep 30` had ended and had no time left for the rest.)
"""
import re
import time

from testlib import Session

KEY_GAP = 0.002                         # seconds between keys, as the report typed
PROMPT = re.compile(r"^\$ ", re.M)      # what is typed next is echoed on the same line


def type_keys(s, text):
    for c in text:
        s.q.send(c)
        time.sleep(KEY_GAP)


def interrupt_sleep(s, ahead=""):
    """Type `sleep 30` and ^C it a second later, with `ahead` in the same burst (a paste: all of it
    is in before the shell can react). Where the output after the echoed line starts, or None."""
    pos = len(s.q.output)
    type_keys(s, "sleep 30\n")
    m = s.wait_for(re.compile(r"sleep 30\n"), pos, 20)
    if not m:
        return None
    time.sleep(1)                       # long enough for the shell to have started sleep and given it the tty
    if ahead:
        s.q.send("\x03" + ahead)
    else:
        type_keys(s, "\x03")
    return m.end()


def at_prompts(h, s, label):
    """Each line typed when the prompt appears: the ^C comes before the prompt, every line runs."""
    after = interrupt_sleep(s)
    prompt = s.wait_for(PROMPT, after, 20) if after is not None else None
    seen = s.q.output[after:] if after is not None else s.q.output
    h.record(f"{label} ^C is echoed before the next prompt",
             prompt is not None and "^C" in s.q.output[after:prompt.start()], f"got {seen[:80]!r}")
    if prompt:
        type_keys(s, "echo survived-ctrl-c\n")
    echo = s.wait_for(re.compile(r"^survived-ctrl-c\n", re.M), prompt.end(), 20) if prompt else None
    prompt = s.wait_for(PROMPT, echo.end(), 20) if echo else None
    if prompt:
        type_keys(s, "nosuchcmd\n")
    answer = s.wait_for(re.compile(r"nosuchcmd: not found\n"), prompt.end(), 20) if prompt else None
    ok = answer is not None and s.wait_for(PROMPT, answer.end(), 20) is not None
    seen = s.q.output[after:] if after is not None else s.q.output
    h.record(f"{label} lines typed at each prompt after ^C run: echo, then nosuchcmd's \"not found\"",
             ok, f"got {seen[-300:]!r}")
    return ok


def ahead_of_prompt(h, s, label):
    """Both lines pasted with the ^C, before the shell is back: both run, none is flushed. (Typed
    2 ms a key, they would come after the shell had already taken back the terminal.)"""
    after = interrupt_sleep(s, ahead="echo ahead-$((6*7))\nnosuchcmd2\n")
    answer = s.wait_for(re.compile(r"nosuchcmd2: not found\n"), after, 20) if after is not None else None
    ok = answer is not None and s.wait_for(PROMPT, answer.end(), 20) is not None
    seen = s.q.output[after:] if after is not None else s.q.output
    # The ^C is the first key after `sleep 30`: its echo comes before anything else, the prompt too.
    # (The prompt may come after the pasted lines' echo, and ahead-42 then follows it on its line.)
    ok = ok and seen.startswith("^C") and "ahead-42\n" in seen
    h.record(f"{label} lines pasted with the ^C, before the prompt, run; ^C echoed first", ok,
             f"got {seen[-300:]!r}")


def typeahead(h, cpus):
    label = f"typeahead[smp{cpus}]"
    if not h.wanted(label):
        return
    s = Session(h, f"typeahead-smp{cpus}", cpus=cpus, timeout=150)
    if not s.ok:
        h.record(f"{label} prompt", False, "no '$ ' prompt" + (" (timeout)" if s.q.timed_out else ""))
        s.q.kill()
        return
    if not at_prompts(h, s, label):
        s.q.kill()                      # the shell is lost: nothing after this could be told apart
        return
    ahead_of_prompt(h, s, label)
    problems = s.power_off()
    h.record(f"{label} poweroff, no kernel report", not problems, "; ".join(problems))


def run(h):
    typeahead(h, 1)
    typeahead(h, 4)
