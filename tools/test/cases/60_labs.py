"""The teaching labs (docs/labs/): each grader means something, and nothing leaks.

For every lab: its handout (tools/labs/handout.py: the solution regions of that
lab and of every later lab replaced by the stubs of tools/labs/labN.stubs)
builds with -Werror, holds no marker and no line of those solutions and no
answer key, and its grader gives it at most 10% of the points; the next lab's
handout (the lab solved, later labs still stubbed) gets full marks, as the
full tree does for the last lab. The half-done solutions of NEGATIVES score
what the grader's gates say they are worth; make handout FROM=dir carries a
student's files forward; tools/grade-all grades a small class. The handouts
are seeded with this tree's objects (--seed-build), so each build recompiles
only the files with stubbed regions.
"""
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# Every lab with a stub file (tools/labs/labN.stubs): a new lab is checked as soon as it has one.
LABS = sorted(int(m.group(1)) for m in (re.fullmatch(r"lab(\d+)\.stubs", n)
                                        for n in os.listdir(os.path.join(ROOT, "tools", "labs"))) if m)


def grade(h, tree, lab, timeout=300):
    """Run tree's own grader for lab; (exit status, score line, output).
    A handout builds in its own build/: SMPIX_BUILD (this tree's build directory) is not passed to it."""
    env = dict(os.environ)
    if os.path.realpath(tree) != os.path.realpath(h.ROOT):
        env.pop("SMPIX_BUILD", None)
    if lab in FILLED_ANSWERS:           # a grader that reads the answers file gets a filled one
        env["SMPIX_ANSWERS_DIR"] = filled_answers(h, lab)
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
        # Cumulative: lab 7's handout stubs lab 8's regions too.
        text, n = handout.strip_labs(good, {7: stubs, 8: {}}, "good.c")
        if n != 2 or "secret()" in text or "other()" in text or "LAB" in text:
            problems.append(f"labs 7 and 8 of good.c came out as {text!r}")
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


def handout_is_clean(h, out_dir, lab):
    """What a student must not find in lab's handout: the markers of lab or of any later lab, any
    line that only a solution of those labs has (the labs are cumulative: no later solution inside),
    the staff's answer keys, or a .git."""
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "labs"))
    import handout
    problems = []
    for d, dirs, files in os.walk(out_dir):
        dirs[:] = [x for x in dirs if not (d == out_dir and x.startswith("build"))]
        for f in files:
            if f.endswith((".c", ".h", ".S")):
                text = open(os.path.join(d, f), encoding="utf-8").read()
                m = re.search(r"LAB(\d+): (BEGIN|STUB|END)", text)
                if m and int(m.group(1)) >= lab:
                    problems.append(f"{os.path.relpath(os.path.join(d, f), out_dir)} still has LAB{m.group(1)} markers")
    for path, rs in handout.scan(h.ROOT).items():
        lines = open(os.path.join(h.ROOT, path), encoding="utf-8").read().splitlines()
        given = os.path.join(out_dir, path)
        given = set(l.strip() for l in open(given, encoding="utf-8").read().splitlines()) if os.path.exists(given) else set()
        inside = set()
        for _, _, begin, end in rs:
            inside |= set(range(begin, end + 1))
        elsewhere = {l.strip() for i, l in enumerate(lines) if i not in inside}
        # What the stubs of this file say is no leak, even when a solution has the same line.
        stub = {l.strip() for r_lab, name, _, _ in rs for l in handout.load_stubs(r_lab).get((path, name), [])}
        for r_lab, name, begin, end in rs:
            if r_lab < lab:
                continue
            # A solution's own lines: code (not a comment, not a brace) that nothing else in the file has.
            own = {l.strip() for l in lines[begin + 1:end]} - elsewhere - stub
            own = {l for l in own if len(l) > 12 and not l.startswith(("/*", "*", "//"))}
            leaked = sorted(own & given)
            if leaked:
                problems.append(f"{path}: lab {r_lab}'s solution {name!r} is in the lab {lab} handout: {leaked[0]!r}")
    if os.path.exists(os.path.join(out_dir, ".git")):
        problems.append("the handout has a .git")
    if os.path.exists(os.path.join(out_dir, "tools", "labs", "staff")):
        problems.append("the handout has tools/labs/staff/ (the answer keys)")
    return problems


def check_handout_from(h):
    """make handout LAB=n FROM=dir: a student's own files of the earlier labs come in, nothing of
    lab n or later is solved, and a student tree that lacks one of those files is refused."""
    name = "labs[handout FROM=dir carries a student's earlier labs forward, later labs stubbed]"
    if not h.wanted(name) or len(LABS) < 2:
        return
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "labs"))
    import handout
    lab, base = LABS[1], os.path.join(h.BUILD, "test-handout-from")
    student, out = os.path.join(base, "student"), os.path.join(base, "out")
    shutil.rmtree(base, ignore_errors=True)
    found = handout.scan(h.ROOT)
    theirs = sorted({f for k in LABS if k < lab for f in handout.files_of(k, found)})
    for f in theirs:
        os.makedirs(os.path.dirname(os.path.join(student, f)), exist_ok=True)
        text = open(os.path.join(h.ROOT, f)).read()
        open(os.path.join(student, f), "w").write(text + "/* the student's own work */\n")
    problems = []
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            handout.write_handout(lab, out, False, student)
        for f in theirs:
            if not open(os.path.join(out, f)).read().endswith("/* the student's own work */\n"):
                problems.append(f"{f} is not the student's")
        problems += [p for p in handout_is_clean(h, out, lab) if "answer keys" not in p]
    except handout.RegionError as e:
        problems.append(f"refused a whole student tree: {e}")
    os.remove(os.path.join(student, theirs[0]))
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            handout.write_handout(lab, out, False, student)
        problems.append(f"accepted a student tree without {theirs[0]}")
    except handout.RegionError:
        pass
    h.record(name, not problems, "; ".join(problems))
    if not problems:
        shutil.rmtree(base, ignore_errors=True)


def variant_tree(h, name, bodies):
    """A copy of this tree (seeded with its objects) in which each region {(file, region): body} has
    body in place of its solution, built: (the tree, "") or (None, why not)."""
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "labs"))
    import handout
    out_dir = os.path.join(h.BUILD, f"test-{name}")
    if os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    for f in handout.tree_files(h.ROOT):
        os.makedirs(os.path.dirname(os.path.join(out_dir, f)), exist_ok=True)
        shutil.copy2(os.path.join(h.ROOT, f), os.path.join(out_dir, f), follow_symlinks=False)
    handout.copy_dir_times(out_dir)
    handout.seed_build(out_dir)
    for (path, region), body in bodies.items():
        full = os.path.join(out_dir, path)
        text = open(full).read()
        m = re.search(rf"^[ \t]*/\* LAB\d+: BEGIN {region} \*/\n.*?^[ \t]*/\* LAB\d+: END \*/\n", text, re.S | re.M)
        if not m:
            return None, f"{path} has no region {region}"
        open(full, "w").write(text[:m.start()] + body + text[m.end():])
    built = subprocess.run(["make", "-C", out_dir, "all"], capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        return None, (built.stdout + built.stderr)[-600:]
    return out_dir, ""


# Lab 7's step 3 as a student first writes it: each branch's lock taken when the transfer gets there,
# the first one held across the back office. Transfers between the branches both ways deadlock.
ABBA_MOVE_MONEY = """\tstruct ledger_mutex *from = &branch_locks[branch_of(t->from)], *to = &branch_locks[branch_of(t->to)];
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

# Half-done solutions and what each must score under the grader's gates (tools/labs/grade.py): the
# work they skip is what the lab is for, so they must not come near full marks.
NEGATIVES = {
    # Lab 6 with no lock at all: no BKL taken, but records numbered twice. Neither counts alone: 0.
    6: ("a lock-free journal", "lab6-lockfree", 0, {
        ("drivers/lab/journal.c", "journal-lock"): "",
        ("drivers/lab/journal.c", "write-append"): "\tjournal_append(&rec);\n",
        ("drivers/lab/journal.c", "read-snapshot"): "\t*snap = journal;\n"}),
    # Lab 7 stopped after step 2: one mutex for the whole ledger, never split. Steps 1 and 2: 9/16.
    7: ("one never-split mutex", "lab7-onemutex", 9, {
        ("drivers/lab/ledger.c", "locks"): "static struct ledger_mutex ledger_lock;     /* protects balance[] */\n",
        ("drivers/lab/ledger.c", "move-money"):
            "\tlong r = ledger_mutex_lock(&ledger_lock);\n\n\tif (r < 0)\n\t\treturn r;\n"
            "\tbalance[t->from] -= t->amount;\n\tback_office(t->delay_us);\n\tbalance[t->to] += t->amount;\n"
            "\tledger_mutex_unlock(&ledger_lock);\n\treturn 0;\n",
        ("drivers/lab/ledger.c", "lock-all"): "\treturn ledger_mutex_lock(&ledger_lock);\n",
        ("drivers/lab/ledger.c", "unlock-all"): "\tledger_mutex_unlock(&ledger_lock);\n",
        ("drivers/lab/ledger.c", "init-locks"): "\tledger_mutex_init(&ledger_lock, \"ledger\");\n"}),
}


def lab9_buckets_renamed():
    """Lab 9 solved, but its bucket locks' class named without "bcache", where the grader does not look:
    no contention seen, and no acquisitions either (fewer than the block reads), so the gate holds
    and it scores 0, not full marks. (The solved tree, not the handout: one lock spins for a minute.)"""
    text = open(os.path.join(ROOT, "fs", "buffer.c")).read()
    m = re.search(r"^/\* LAB9: BEGIN cache \*/\n(.*?)^/\* LAB9: END \*/\n", text, re.S | re.M)
    body = m.group(1) if m else ""
    renamed = body.replace("spin_lock_init(&bcache_buckets[i].lock,", "spin_lock_init(&b->lock,")
    return {("fs/buffer.c", "cache"): renamed}


NEGATIVES[9] = ("the split cache, its locks named out of the grader's sight", "lab9-renamed", 0,
                lab9_buckets_renamed())


def check_negative(h, lab):
    if lab not in NEGATIVES:
        return
    what, tree_name, want, bodies = NEGATIVES[lab]
    name = f"labs[lab{lab}] {what} scores {want}, not full marks"
    if not h.wanted(name):
        return
    tree, why = variant_tree(h, tree_name, bodies)
    if not tree:
        h.record(name, False, why)
        return
    rc, m, out = grade(h, tree, lab)
    ok = m is not None and int(m.group(1)) == want and rc == 1
    h.record(name, ok, f"exit {rc}, {m.group(0) if m else 'no score line'}: {out[-1200:]}" if not ok else "")
    if ok:
        shutil.rmtree(tree, ignore_errors=True)


def check_lab7_names_abba(h):
    """Lab 7's last step: in a tree whose transfers take the two branch locks in from/to order, the
    grader's boot (lockdep=1) must show the lock-order checker's report of the two orders, and the
    grader must fail its lock-order check naming both branch locks; the deadlock itself still
    comes, and the grader must find it, name it ABBA from /dev/ledger's report, and still end
    (labcheck kills the stuck workers)."""
    name = "labs[lab7] the grader names an ABBA deadlock (branch locks in from/to order) and ends"
    if not h.wanted(name):
        return
    out_dir, why = variant_tree(h, "lab7-abba", {("drivers/lab/ledger.c", "move-money"): ABBA_MOVE_MONEY})
    if not out_dir:
        h.record(name, False, why)
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
    check_handout_from(h)
    check_lab7_names_abba(h)
    handouts = {}
    for lab in LABS:
        prefix = f"labs[lab{lab}]"
        names = [f"{prefix} handout: no marker or solution of labs {lab}-{LABS[-1]}, no answer keys; builds with -Werror",
                 f"{prefix} the untouched handout scores at most 10%",
                 f"{prefix} solved, with labs {lab + 1}-{LABS[-1]} still stubbed, it gets full marks"
                 if lab != LABS[-1] else f"{prefix} the full tree gets full marks"]
        if any(h.wanted(n) for n in names):
            check_handout_and_solved(h, lab, names, handouts)
        check_negative(h, lab)
    check_grade_all(h, handouts)
    check_lab12(h)
    check_lab11_unnested(h)


def make_handout(h, lab, handouts):
    """Lab's handout, built (seeded with this tree's objects), once: (its tree or None, why not)."""
    if lab not in handouts:
        out_dir = os.path.join(h.BUILD, f"handout-lab{lab}")
        made = subprocess.run([sys.executable, os.path.join(h.ROOT, "tools", "labs", "handout.py"), str(lab),
                               "--seed-build"], capture_output=True, text=True, timeout=120)
        built = made.returncode == 0 and subprocess.run(
            ["make", "-C", out_dir, "all"], capture_output=True, text=True, timeout=600)
        if made.returncode != 0 or built.returncode != 0:
            handouts[lab] = (None, made.stderr.strip() if made.returncode else (built.stdout + built.stderr)[-600:])
        else:
            handouts[lab] = (out_dir, "")
    return handouts[lab]


# The labs whose untouched handout is caught by contention measured at -smp 4: graded alone
# (tools/test/cases/61_labs_measured.py), where the four vCPUs really run at once.
MEASURED_ALONE = (9,)


def record_handout_grade(h, out_dir, lab, name):
    """The untouched handout of lab scores at most 10% of its points."""
    rc, m, out = grade(h, out_dir, lab)
    # Gated points (grade.py's needs=): what passes without the work done is worth nothing alone.
    low = rc == 1 and m is not None and int(m.group(1)) * 10 <= int(m.group(2))
    h.record(name, low, f"exit {rc}, {m.group(0) if m else 'no score line'}: the stubs score too much"
             if not low else "")
    if not low:
        print(out[-1500:])


def check_handout_and_solved(h, lab, names, handouts):
    """Lab's handout scores at most 10% of lab's points; the next lab's handout (lab solved, the later
    labs still stubbed: what a student who solved lab has) gets full marks, as the last lab's full tree."""
    out_dir, detail = make_handout(h, lab, handouts)
    ok = out_dir is not None
    if ok:
        unclean = handout_is_clean(h, out_dir, lab)
        ok, detail = not unclean, "; ".join(unclean)
    h.record(names[0], ok, detail)
    if ok and lab not in MEASURED_ALONE:        # those: 61_labs_measured.py, with the host to itself
        record_handout_grade(h, out_dir, lab, names[1])
    solved, why = make_handout(h, lab + 1, handouts) if lab != LABS[-1] else (h.ROOT, "")
    if not solved:
        h.record(names[2], False, f"the lab {lab + 1} handout: {why}")
        return
    rc, m, out = grade(h, solved, lab)
    full = rc == 0 and m is not None and m.group(1) == m.group(2)
    h.record(names[2], full, f"exit {rc}, {m.group(0) if m else 'no score line'}: {failures(out)}")


def check_grade_all(h, handouts):
    """tools/grade-all on two submissions of lab 6, in parallel: the solution (its lab file only, with a
    forged grader and Makefile beside it, which must not be used) and the untouched handout."""
    name = "labs[grade-all] grades a solution and a handout in parallel from the pristine tree, CSV of scores"
    if not h.wanted(name):
        return
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "labs"))
    import handout
    lab, path = 6, "drivers/lab/journal.c"
    subs = os.path.join(h.BUILD, "test-grade-all")
    shutil.rmtree(subs, ignore_errors=True)
    forged = {"tools/labs/grade.py": "print('lab 6: score 9/9')\n", "Makefile": "all:\n\ttrue\n",
              "user/tests/labcheck.c": "int main(void) { return 0; }\n"}
    text = open(os.path.join(h.ROOT, path), encoding="utf-8").read()
    stubbed, _ = handout.strip_labs(text, {lab: handout.load_stubs(lab)}, path)
    for student, body in (("alice", text), ("bob", stubbed)):
        for f, content in [(path, body)] + list(forged.items()):
            os.makedirs(os.path.dirname(os.path.join(subs, "in", student, f)), exist_ok=True)
            open(os.path.join(subs, "in", student, f), "w").write(content)
    os.makedirs(os.path.join(subs, "in", "carol"))                   # handed in nothing
    p = subprocess.run([os.path.join(h.ROOT, "tools", "grade-all"), str(lab), os.path.join(subs, "in"),
                        "--jobs", "2", "--timeout", "400", "--out", os.path.join(subs, "out")],
                       capture_output=True, text=True, timeout=500)
    csv_path = os.path.join(subs, "out", "scores.csv")
    rows = open(csv_path).read().splitlines() if os.path.exists(csv_path) else []
    want = ["student,lab,points,max,status", "alice,6,9,9,full", "bob,6,0,9,partial", "carol,6,0,,missing"]
    problems = [] if rows == want else [f"scores.csv is {rows}, want {want}: {(p.stdout + p.stderr)[-800:]}"]
    report = os.path.join(subs, "out", "alice", "grade.json")
    if not problems and not all(c["log"] and os.path.exists(os.path.join(subs, "out", "alice", "grade-logs",
                                                                          os.path.basename(c["log"])))
                                for c in json.load(open(report))["checks"]):
        problems.append("alice's grade.json names a log that grade-all did not keep")
    h.record(name, not problems, "; ".join(problems))
    if not problems:
        shutil.rmtree(subs, ignore_errors=True)


# ---- lab 10: the open pushdown (docs/labs/lab10-open-pushdown.md) ---------------------------------

# Lab 10 with the BKL moved, not removed: flock's sites call a helper that takes it (a new site,
# flock_lock()), so the site's own counters fall to 0 while the BKL is taken as often as before. The
# grader's three pushdown checks need each other: it scores 0.
LAB10_MOVED = {
    ("fs/flock.c", "flock-lock"):
        "DEFINE_OWN_MUTEX(flock_mutex);\n\n/* The BKL, moved into a function of its own: a new site. */\n"
        "static void flock_lock(void)\n{\n\tlock_kernel();\n}\n\nstatic void flock_unlock(void)\n{\n"
        "\tunlock_kernel();\n}\n",
    ("fs/flock.c", "flock-wait"):
        "static void count_unlock(void)\n{\n}\n\nstatic int wait_for_unlock(struct file *f, bool exclusive)\n{\n"
        "\treturn wait_event_interruptible(flock_wait, !conflicts(f, exclusive));\n}\n",
    ("fs/flock.c", "sys-flock"): "\tflock_lock();\n\tr = flock_cmd(f, cmd & ~LOCK_NB, nonblock);\n\tflock_unlock();\n",
    ("fs/flock.c", "release"): "\tflock_lock();\n\tunlock_file(f);\n\tflock_unlock();\n",
}
NEGATIVES[10] = ("the BKL moved into a helper of flock's, not pushed out", "lab10-moved", 0, LAB10_MOVED)


# ---- lab 11: the lockdep hunt (docs/labs/lab11-lockdep-hunt.md) -----------------------------------

# Lab 11's grader wants the answers file filled in and naming the two paths: the full-marks runs get this.
FILLED_ANSWERS = {11: "Your name: make test\n\nAnswer: the open, fifo_open -> fifo_attach, takes i_mutex "
                      "then the pipe's mutex; the last close, fifo_release -> fifo_detach, took them the "
                      "other way round.\n"}


def filled_answers(h, lab):
    d = os.path.join(h.BUILD, "test-answers")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"lab{lab}.md"), "w") as f:
        f.write(FILLED_ANSWERS[lab])
    return d


# The wrong fix: the last close lets the pipe's mutex go, then takes i_mutex alone to unhook the pipe.
# No lock-order report, but an open can count itself into the pipe in between: pipetest's FIFO storm
# sees it (a BUG line, a double free, a token lost).
LAB11_UNNESTED = """\tmutex_lock(&p->mutex);
\tif (reads(f))
\t\tp->readers--;
\tif (writes(f))
\t\tp->writers--;
\tlast = p->readers == 0 && p->writers == 0;
\tif (!last) {
\t\twake_up(&p->rd_wait);
\t\twake_up(&p->wr_wait);
\t}
\tmutex_unlock(&p->mutex);
\tif (last) {
\t\tmutex_lock(&inode->i_mutex);
\t\tinode->i_pipe = NULL;
\t\tmutex_unlock(&inode->i_mutex);
\t}
"""


def check_lab11_unnested(h):
    """Lab 11 "fixed" by never nesting the two locks: the grader must fail it on the race, not pass it."""
    name = "labs[lab11] a fix that never nests the FIFO's two locks (the race reopened) fails its grade"
    if not h.wanted(name) or 11 not in LABS:
        return
    tree, why = variant_tree(h, "lab11-unnested", {("fs/pipe/fifo.c", "detach"): LAB11_UNNESTED})
    if not tree:
        h.record(name, False, why)
        return
    rc, m, out = grade(h, tree, 11)
    race = re.search(r"^FAIL\s+lab11: (lockdep=1|every pipetest test|no BUG report).*$", out, re.M)
    ok = rc == 1 and m is not None and int(m.group(1)) < int(m.group(2)) and race is not None
    h.record(name, ok, f"exit {rc}, {m.group(0) if m else 'no score line'}: {out[-1200:]}" if not ok else "")
    if ok:
        shutil.rmtree(tree, ignore_errors=True)


# ---- lab 12: the eras (docs/labs/lab12-eras.md) ----------------------------------------------------

def lab12_grade(h, answers):
    """This tree's grader for lab 12 on the submission in answers (SMPIX_LAB12_ANSWERS): (rc, score, out)."""
    env = dict(os.environ, SMPIX_LAB12_ANSWERS=answers)
    p = subprocess.run([sys.executable, os.path.join(h.ROOT, "tools", "labs", "grade.py"), "12"],
                       capture_output=True, text=True, timeout=900, cwd=h.ROOT, env=env)
    m = re.search(r"^lab 12: score (\d+)/(\d+)$", p.stdout, re.M)
    return p.returncode, m, p.stdout + p.stderr


def check_lab12(h):
    """Lab 12 is graded without a boot: a real `make bench ERAS=1` run, prepared in
    tools/labs/testdata/lab12/, gets full marks (its numbers in their logs, its table, its plot's
    data and its claims agree, and this tree's make ERA=2.6.39 has no BKL site); the same run with
    one number of the table changed, or a claim the numbers contradict, fails that check and is
    not full; no submission at all (this tree's own docs/labs/answers/) scores 0."""
    name = "labs[lab12] the grader passes a consistent submission, fails a tampered table or claim, gives none 0"
    if not h.wanted(name):
        return
    good = os.path.join(h.ROOT, "tools", "labs", "testdata", "lab12")
    base = os.path.join(h.BUILD, "test-lab12")
    problems = []
    rc, m, out = lab12_grade(h, good)
    if rc != 0 or not m or m.group(1) != m.group(2):
        problems.append(f"the prepared submission: exit {rc}, {m.group(0) if m else 'no score'}: {failures(out)}")
    for what, fname, edit, check in (
            ("a tampered table", "lab12/eras.md", lambda t: re.sub(r"^(\| contended mix[^|]*\| )(\d+)",
                                                                   lambda x: x.group(1) + str(int(x.group(2)) + 1),
                                                                   t, count=1, flags=re.M), "the table"),
            ("a false claim", "lab12.md", lambda t: t.replace("2.6.8 mix-4 > 2.6.6 mix-4", "2.6.8 mix-4 < 2.6.6 mix-4"),
             "the era claims")):
        shutil.rmtree(base, ignore_errors=True)
        shutil.copytree(good, base)
        path = os.path.join(base, fname)
        text = open(path).read()
        open(path, "w").write(edit(text))
        rc, m, out = lab12_grade(h, base)
        if edit(text) == text or rc != 1 or not re.search(rf"^FAIL\s+lab12: {check}", out, re.M):
            problems.append(f"{what}: exit {rc}, {m.group(0) if m else 'no score'}, no FAIL of {check!r}")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    rc, m, out = lab12_grade(h, base)
    if rc != 1 or not m or m.group(1) != "0":
        problems.append(f"no submission: exit {rc}, {m.group(0) if m else 'no score'}")
    h.record(name, not problems, "; ".join(problems))
    if not problems:
        shutil.rmtree(base, ignore_errors=True)
