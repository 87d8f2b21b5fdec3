"""The teaching labs (docs/labs/): each grader means something.

For every lab: its handout (tools/labs/handout.py, the solution regions replaced by
the stubs of tools/labs/labN.stubs) builds with -Werror and its grader FAILS
there; the same grader gives the full tree full marks. The handouts are
seeded with this tree's objects (--seed-build), so each build recompiles only
the files with stubbed regions.
"""
import os
import re
import shutil
import subprocess
import sys

LABS = range(1, 9)


def grade(h, tree, lab, timeout=300):
    """Run tree's own grader for lab; (exit status, score line, output).
    A handout builds in its own build/: SMPIX_BUILD (this tree's build directory) is not passed to it."""
    env = dict(os.environ)
    if os.path.realpath(tree) != os.path.realpath(h.ROOT):
        env.pop("SMPIX_BUILD", None)
    try:
        p = subprocess.run([sys.executable, os.path.join(tree, "tools", "labs", "grade.py"), str(lab)],
                           capture_output=True, text=True, timeout=timeout, cwd=tree, env=env)
        out = p.stdout + p.stderr
        rc = p.returncode
    except subprocess.TimeoutExpired:
        out, rc = f"the grader took more than {timeout} s", -1
    m = re.search(rf"^lab {lab}: score (\d+)/(\d+)$", out, re.M)
    return rc, m, out


def failures(out):
    return " | ".join(l.strip() for l in out.splitlines() if l.startswith("FAIL"))[:400]


def check_pages(h):
    name = "labs[every lab has regions, a page, and a grader]"
    if not h.wanted(name):
        return
    problems = []
    listing = subprocess.run([sys.executable, os.path.join(h.ROOT, "tools", "labs", "handout.py"), "--list"],
                             capture_output=True, text=True, timeout=60)
    if listing.returncode != 0:
        problems.append("handout.py --list: " + listing.stderr.strip())
    pages = os.listdir(os.path.join(h.ROOT, "docs", "labs"))
    for lab in LABS:
        if not re.search(rf"^lab {lab}: \S", listing.stdout, re.M):
            problems.append(f"lab {lab} has no LAB{lab} region")
        page = [p for p in pages if p.startswith(f"lab{lab}-") and p.endswith(".md")]
        if not page:
            problems.append(f"no docs/labs/lab{lab}-*.md")
        elif f"make grade LAB={lab}" not in open(os.path.join(h.ROOT, "docs", "labs", page[0])).read():
            problems.append(f"{page[0]} does not say how to grade it")
    h.record(name, not problems, "; ".join(problems))


def check_regions(h):
    """tools/labs/handout.py: a stub replaces exactly its region; broken markers and orphan stubs are refused."""
    name = "labs[handout.py: a stub replaces exactly its region; broken markers and orphan stubs are refused]"
    if not h.wanted(name):
        return
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "labs"))
    import handout
    good = ("a\n\t/* LAB7: BEGIN secret */\n\tsecret();\n\t/* LAB7: END */\nb\n"
            "\t/* LAB8: BEGIN other */\n\tother();\n\t/* LAB8: END */\n")
    problems = []

    def refused(what, fn, *args):
        try:
            fn(*args)
            problems.append(f"accepted {what}")
        except handout.RegionError:
            pass

    try:
        stubs = handout.parse_stubs("# notes for the teacher\n\n=== good.c: secret ===\n\n"
                                    "\tstub(); /* TODO(lab7) */\n\n\n", "lab7.stubs")
        if stubs != {("good.c", "secret"): ["\tstub(); /* TODO(lab7) */\n"]}:
            problems.append(f"lab7.stubs parsed as {stubs!r}")
        text, n = handout.strip(good, 7, "good.c", stubs)
        if n != 1 or text != "a\n\tstub(); /* TODO(lab7) */\nb\n\t/* LAB8: BEGIN other */\n\tother();\n\t/* LAB8: END */\n":
            problems.append(f"lab 7 of good.c came out as {text!r}")
        text, n = handout.strip(good, 8, "good.c", {})
        if (n != 1 or "other()" in text or "LAB8" in text or "\t/* TODO(lab8): see docs/labs/" not in text
                or "\tsecret();\n" not in text):
            problems.append(f"lab 8 of good.c, without a stub, came out as {text!r}")
        text, n = handout.strip(good, 8, "good.c", {("good.c", "other"): ["\tstub8();\n"]})
        if n != 1 or not re.search(r"\nb\n\t/\* TODO\(lab8\): see docs/labs/\S* \*/\n\tstub8\(\);\n$", text):
            problems.append(f"a stub without TODO(lab8) came out as {text!r}")
    except handout.RegionError as e:
        problems.append(f"refused good.c: {e}")
    for bad in ("/* LAB1: BEGIN x */\nx\n",                                  # no END
                "/* LAB1: END */\n",                                           # END outside a region
                "/* LAB1: BEGIN x */\n/* LAB2: BEGIN y */\n",                 # nested
                "/* LAB1: BEGIN x */\n/* LAB2: END */\n",                     # END of another lab
                "/* LAB1: BEGIN */\n/* LAB1: END */\n",                       # no name
                "/* LAB1: BEGIN Bad_Name */\n/* LAB1: END */\n",
                "/* LAB1: BEGIN x */\n/* LAB1: END x */\n",                   # END takes no name
                "/* LAB1: BEGIN x */\n/* LAB1: STUB */\n/* LAB1: END */\n",  # the old format
                "/* LAB1: BEGIN x */\n#if 0\nstub();\n#endif\n/* LAB1: END */\n",
                "f(); /* LAB1: BEGIN x */\n/* LAB1: END */\n",                # not a line of its own
                "/* LAB1: BEGIN x*/\n/* LAB1: END */\n",
                "/* LAB1: BEGIN x */\n/* LAB1: END */\n/* LAB2: BEGIN x */\n/* LAB2: END */\n"):  # one name twice
        refused(repr(bad), handout.strip, bad, 1, "bad.c", {})
    refused("a stub whose region is missing", handout.strip, good, 7, "good.c",
            {("good.c", "secret"): ["\ts();\n"], ("good.c", "gone"): ["\tg();\n"]})
    refused("a stub for a region of another lab", handout.strip, good, 7, "good.c",
            {("good.c", "other"): ["\to();\n"]})
    refused("a stub for a file without regions", handout.check_stubs, 7,
            {("nowhere.c", "secret"): ["\ts();\n"]}, {"good.c": [(7, "secret", 1, 3)]})
    for bad in ("stub();\n=== a.c: x ===\n",                     # text before the first head
                "=== a.c x ===\nstub();\n",                      # a broken head
                "=== a.c: x ===\ns();\n=== a.c: x ===\nt();\n"):  # two stubs for one region
        refused(f"the stub file {bad!r}", handout.parse_stubs, bad, "bad.stubs")
    h.record(name, not problems, "; ".join(problems))


def handout_is_clean(out_dir, lab):
    """What a student must not find in the handout: lab's markers or its solution's objects."""
    problems = []
    for d, dirs, files in os.walk(out_dir):
        dirs[:] = [x for x in dirs if x != "build"]
        for f in files:
            if f.endswith((".c", ".h", ".S")):
                text = open(os.path.join(d, f), encoding="utf-8").read()
                if re.search(rf"LAB{lab}: (BEGIN|STUB|END)", text):
                    problems.append(f"{os.path.relpath(os.path.join(d, f), out_dir)} still has LAB{lab} markers")
    if os.path.exists(os.path.join(out_dir, ".git")):
        problems.append("the handout has a .git")
    return problems


# Lab 7's step 3 as a student first writes it: each branch's lock taken when the transfer gets there,
# the first one held across the back office. Transfers between the branches both ways deadlock.
ABBA_MOVE_MONEY = """\t/* LAB7: BEGIN move-money */
\tstruct ledger_mutex *from = &branch_locks[branch_of(t->from)], *to = &branch_locks[branch_of(t->to)];
\tlong r;

\tif ((r = ledger_mutex_lock(from)) < 0)
\t\treturn r;
\tbalance[t->from] -= t->amount;
\tback_office(t->delay_us);
\tif (to != from && (r = ledger_mutex_lock(to)) < 0) {
\t\tbalance[t->from] += t->amount;
\t\tledger_mutex_unlock(from);
\t\treturn r;
\t}
\tbalance[t->to] += t->amount;
\tif (to != from)
\t\tledger_mutex_unlock(to);
\tledger_mutex_unlock(from);
\treturn 0;
"""


def check_lab7_names_abba(h):
    """Lab 7's last step: in a tree whose transfers take the two branch locks in from/to order, the
    grader's boot (lockdep=1) must show the lock-order checker's report of the two orders, and the
    grader must fail its lock-order check naming both branch locks; the deadlock itself still
    comes, and the grader must find it, name it ABBA from /dev/ledger's report, and still end
    (labcheck kills the stuck workers)."""
    name = "labs[lab7] the grader names an ABBA deadlock (branch locks in from/to order) and ends"
    if not h.wanted(name):
        return
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "labs"))
    import handout
    out_dir = os.path.join(h.BUILD, "test-lab7-abba")
    if os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    for f in handout.tree_files(h.ROOT):
        os.makedirs(os.path.dirname(os.path.join(out_dir, f)), exist_ok=True)
        shutil.copy2(os.path.join(h.ROOT, f), os.path.join(out_dir, f), follow_symlinks=False)
    handout.seed_build(out_dir)
    path = os.path.join(out_dir, "drivers", "lab", "ledger.c")
    text = open(path).read()
    m = re.search(r"\t/\* LAB7: BEGIN move-money \*/\n.*?(?=\t/\* LAB7: END \*/)", text, re.S)
    if not m:
        h.record(name, False, "drivers/lab/ledger.c has no move-money region")
        return
    open(path, "w").write(text[:m.start()] + ABBA_MOVE_MONEY + text[m.end():])
    built = subprocess.run(["make", "-C", out_dir, "all"], capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        h.record(name, False, (built.stdout + built.stderr)[-600:])
        return
    rc, m, out = grade(h, out_dir, 7)
    # The deadlock strikes in whichever of the two phases that move money comes first to it.
    line = re.search(r"^FAIL\s+lab7: ledger-(no-deadlock|books-balance) .*ABBA.*$", out, re.M)
    problems = []
    if not line:
        problems.append("no ledger-no-deadlock or ledger-books-balance FAIL naming ABBA: " + failures(out))
    if not m or rc != 1:
        problems.append(f"exit {rc}, {m.group(0) if m else 'no score line'}")
    if re.search(r"^FAIL.*no BUG report, no lockup", out, re.M):
        problems.append("the run did not end cleanly")
    order = re.search(r"^FAIL\s+lab7: ledger-lock-order.*$", out, re.M)
    if not order or not all(f"&branch_locks[{b}]" in order.group(0) for b in (0, 1)):
        problems.append("no ledger-lock-order FAIL naming both branch locks: " + failures(out))
    log = os.path.join(out_dir, "build", "grade-logs", "lab7-smp2.log")
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    report = text.find("WARNING: possible circular locking dependency detected")
    if report < 0 or not re.search(r"^-> #1 \(&branch_locks\[[01]\]\)", text[report:], re.M):
        problems.append("the grader's boot log has no circular-dependency report with the other chain (#1)")
    elif report > text.find("workers stuck") >= 0:
        problems.append("the checker's report came after the deadlock, not before")
    h.record(name, not problems, "; ".join(problems))
    if not problems:
        shutil.rmtree(out_dir, ignore_errors=True)


def run(h):
    check_pages(h)
    check_regions(h)
    check_lab7_names_abba(h)
    for lab in LABS:
        prefix = f"labs[lab{lab}]"
        names = [f"{prefix} handout has no LAB{lab} marker left and builds with -Werror",
                 f"{prefix} the handout's grader fails",
                 f"{prefix} the full tree gets full marks"]
        if not any(h.wanted(n) for n in names):
            continue
        out_dir = os.path.join(h.BUILD, f"handout-lab{lab}")
        made = subprocess.run([sys.executable, os.path.join(h.ROOT, "tools", "labs", "handout.py"), str(lab),
                               "--seed-build"], capture_output=True, text=True, timeout=120)
        built = made.returncode == 0 and subprocess.run(
            ["make", "-C", out_dir, "all"], capture_output=True, text=True, timeout=600)
        ok = made.returncode == 0 and built.returncode == 0
        detail = made.stderr.strip() if made.returncode else (built.stdout + built.stderr)[-600:] if built else ""
        if ok:
            unclean = handout_is_clean(out_dir, lab)
            ok, detail = not unclean, "; ".join(unclean)
        h.record(names[0], ok, detail)
        if ok:
            rc, m, out = grade(h, out_dir, lab)
            failed = rc == 1 and m is not None and int(m.group(1)) < int(m.group(2))
            h.record(names[1], failed,
                     f"exit {rc}, {m.group(0) if m else 'no score line'}: the stubs pass the grader"
                     if not failed else "")
            if not failed:
                print(out[-1500:])
        rc, m, out = grade(h, h.ROOT, lab)
        full = rc == 0 and m is not None and m.group(1) == m.group(2)
        h.record(names[2], full, f"exit {rc}, {m.group(0) if m else 'no score line'}: {failures(out)}")
