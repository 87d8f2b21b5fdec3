#!/usr/bin/env python3
"""handout: write the student tree of one lab (`make handout LAB=n`).

The solution of lab n lives in the real code between two marker lines:

        /* LABn: BEGIN */
        ... the solution, compiled into the full tree ...
        /* LABn: STUB */
    #if 0
        ... what the student starts from (optional) ...
    #endif
        /* LABn: END */

The handout is a copy of the tree in which each region of lab n is replaced
by its stub (without the `#if 0` wrapper), or, if it has none, by a comment
`/* TODO(labn) */`. A stub is code that still compiles with -Wall -Wextra
-Werror, so the student's tree builds and boots from the first minute; its
grader then fails until the work is done. Regions of the other labs keep
their solutions: each lab starts from a working kernel.

    tools/handout.py N [--out DIR] [--seed-build]   write the tree (default build/handout-labN)
    tools/handout.py --list                         the regions of every lab

--seed-build also copies the full tree's build/ into the handout, keeping
the time stamps, so make rebuilds only the files whose regions changed (how
`make test` keeps this quick). Never hand such a tree to a student: its
objects were compiled from the solutions.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"^\s*/\* LAB(\d+): (BEGIN|STUB|END) \*/\s*$")
SOURCE_EXT = (".c", ".h", ".S")
# Kept out of a seeded build/: other handouts, logs and images the handout does not need.
SEED_SKIP = {"test-logs", "grade-logs", "iso", "smpix.iso", "compiledb", "hosttest", "initrd"}


class RegionError(Exception):
    pass


def tree_files(root):
    """The files of the tree: what git knows (tracked or new, not ignored), else a walk without build/."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            raise OSError("not the top of a git tree")      # e.g. a handout inside build/
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        return sorted(f for f in set(files) if os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, names in os.walk(root):
            rel = os.path.relpath(d, root)
            dirs[:] = [x for x in dirs if not (rel == "." and x in ("build", ".git"))]
            found += [os.path.normpath(os.path.join(rel, n)) for n in names]
        return sorted(found)


def regions(lines, path):
    """[(lab, begin, stub, end)] line indexes of every region in a file; stub is None without one."""
    found, open_ = [], None
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        lab, what = int(m.group(1)), m.group(2)
        if what == "BEGIN":
            if open_:
                raise RegionError(f"{path}:{i + 1}: LAB{lab} BEGIN inside LAB{open_[0]}'s region")
            open_ = [lab, i, None]
        elif not open_ or open_[0] != lab:
            raise RegionError(f"{path}:{i + 1}: LAB{lab} {what} outside a LAB{lab} region")
        elif what == "STUB":
            if open_[2] is not None:
                raise RegionError(f"{path}:{i + 1}: a second LAB{lab} STUB")
            open_[2] = i
        else:
            found.append((lab, open_[1], open_[2], i))
            open_ = None
    if open_:
        raise RegionError(f"{path}:{open_[1] + 1}: LAB{open_[0]} BEGIN without an END")
    return found


def stub_lines(lines, lab, begin, stub, end):
    indent = re.match(r"^\s*", lines[begin]).group(0)
    body = lines[stub + 1:end] if stub is not None else []
    if body and body[0].strip() == "#if 0" and body[-1].strip() == "#endif":
        body = body[1:-1]
    if not any(f"TODO(lab{lab})" in l for l in body):
        body = [f"{indent}/* TODO(lab{lab}): see {lab_page(lab)} */\n"] + body
    return body


def lab_page(lab):
    """docs/labs/labN-*.md, the page a stub points at."""
    d = os.path.join(ROOT, "docs", "labs")
    pages = sorted(p for p in os.listdir(d) if p.startswith(f"lab{lab}-")) if os.path.isdir(d) else []
    return f"docs/labs/{pages[0]}" if pages else "docs/labs/"


def strip(text, lab, path):
    """The file with lab's regions replaced by their stubs, and how many there were."""
    lines = text.splitlines(keepends=True)
    out, at, n = [], 0, 0
    for r_lab, begin, stub, end in regions(lines, path):
        if r_lab != lab:
            continue
        out += lines[at:begin] + stub_lines(lines, lab, begin, stub, end)
        at, n = end + 1, n + 1
    return "".join(out + lines[at:]), n


def scan(root):
    """{lab: [(path, line)]} for every region in the tree."""
    labs = {}
    for f in tree_files(root):
        if not f.endswith(SOURCE_EXT):
            continue
        lines = open(os.path.join(root, f), encoding="utf-8").read().splitlines(keepends=True)
        for lab, begin, _, _ in regions(lines, f):
            labs.setdefault(lab, []).append((f, begin + 1))
    return labs


def seed_build(out):
    src = os.path.join(ROOT, "build")
    if not os.path.isdir(src):
        return
    dst = os.path.join(out, "build")
    skip = lambda n: n in SEED_SKIP or n.startswith(("handout-", "test-"))  # noqa: E731
    for d, dirs, names in os.walk(src):
        rel = os.path.relpath(d, src)
        if rel == ".":
            dirs[:] = [x for x in dirs if not skip(x)]
            names = [x for x in names if not skip(x)]
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for n in names:
            s = os.path.join(d, n)
            # Regular files only: tests leave device nodes and FIFOs in build/, which a copy would open.
            if os.path.isfile(s) and not os.path.islink(s):
                shutil.copy2(s, os.path.join(dst, rel, n))


def write_handout(lab, out, seed):
    if os.path.exists(out):
        shutil.rmtree(out)
    total = 0
    for f in tree_files(ROOT):
        src, dst = os.path.join(ROOT, f), os.path.join(out, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if f.endswith(SOURCE_EXT):
            text = open(src, encoding="utf-8").read()
            new, n = strip(text, lab, f)
            if n:
                total += n
                with open(dst, "w", encoding="utf-8") as w:
                    w.write(new)
                shutil.copymode(src, dst)
                print(f"handout: {f}: {n} region{'s' if n > 1 else ''} of lab {lab} left to the student")
                continue
        shutil.copy2(src, dst, follow_symlinks=False)
    if total == 0:
        raise RegionError(f"lab {lab} has no /* LAB{lab}: BEGIN */ regions")
    if seed:
        seed_build(out)
    return total


def main():
    ap = argparse.ArgumentParser(description="write the student tree of one lab")
    ap.add_argument("lab", nargs="?", type=int)
    ap.add_argument("--out")
    ap.add_argument("--seed-build", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    try:
        if a.list:
            for lab, where in sorted(scan(ROOT).items()):
                print(f"lab {lab}: " + ", ".join(f"{p}:{l}" for p, l in where))
            return 0
        if a.lab is None:
            ap.error("which lab? (make handout LAB=n)")
        out = a.out or os.path.join(ROOT, "build", f"handout-lab{a.lab}")
        n = write_handout(a.lab, out, a.seed_build)
        print(f"handout: lab {a.lab}: {n} regions stubbed; the student tree is {os.path.relpath(out)}")
        return 0
    except RegionError as e:
        print(f"handout: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
