#!/usr/bin/env python3
"""handout: write the student tree of one lab (`make handout LAB=n`).

The solution of lab n lives in the real code between two marker lines, each
a line of its own; the name says what the student writes there and is
unique in its file:

        /* LABn: BEGIN name */
        ... the solution, compiled into the full tree ...
        /* LABn: END */

What the student starts from lives apart, in tools/labs/labn.stubs, one
stub per region, keyed by file and name:

    === kernel/locking/bkl.c: recursion ===
        ... the stub, line for line (tabs included), up to the next head ...

Lines starting with # above the first head are notes for the teacher; blank
lines around a stub are dropped.

The handout is a copy of the tree in which each region of lab n is replaced
by its stub, or, if it has none (or an empty one), by a comment
`/* TODO(labn): see docs/labs/labn-....md */`; a stub that does not say
TODO(labn) gets that line on top. A stub is code that still compiles with
-Wall -Wextra -Werror, so the student's tree builds and boots from the first
minute; its grader then fails until the work is done. Regions of the other
labs keep their solutions: each lab starts from a working kernel. The
handout leaves out tools/labs/labn.stubs itself (nothing in it refers to it
any more).

Refused, with the file and line (RegionError): a marker that is not exactly
one of the two above (a STUB marker, a BEGIN without a name, a marker with
code on its line), BEGIN inside a region, END outside one or of another lab,
BEGIN without END, two regions with one name in a file, an `#if 0` block
inside a region (a stub left in the source), a stub file that is not a list
of heads, two stubs for one region, and a stub whose region does not exist.

    tools/labs/handout.py N [--out DIR] [--seed-build]   write the tree (default build/handout-labN)
    tools/labs/handout.py --list                         the regions of every lab (and check every stub file)

SMPIX_BUILD=DIR (as for tools/test/harness.py: the tree built with `make BUILD=DIR`) puts the
default tree in DIR/handout-labN and seeds it from DIR; the handout itself builds in its own build/.

--seed-build also copies the full tree's build/ into the handout, keeping
the time stamps, so make rebuilds only the files whose regions changed (how
`make test` keeps this quick). Never hand such a tree to a student: its
objects were compiled from the solutions.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, os.environ.get("SMPIX_BUILD") or "build")
NAME = r"[a-z0-9][a-z0-9-]*"
MARK = re.compile(r"^\s*/\* LAB(\d+): (BEGIN|END)(?: (\S+))? \*/\s*$")
# Anything that looks like a marker: a line that has one but does not match MARK is refused.
LOOSE = re.compile(r"\bLAB\d+\s*:\s*(BEGIN|END|STUB)\b")
IF0 = re.compile(r"^\s*#\s*if\s+0\b")
HEAD = re.compile(rf"^=== (\S+): ({NAME}) ===\s*$")
SOURCE_EXT = (".c", ".h", ".S")
STUBS_DIR = os.path.join("tools", "labs")
STAFF_DIR = os.path.join("tools", "labs", "staff")      # answer keys: never in a handout
# Kept out of a seeded build/: other handouts, logs and images the handout does not need.
# linux/ is Debian's kernel for the Linux reference, which make test may be fetching meanwhile.
SEED_SKIP = {"test-logs", "grade-logs", "iso", "smpix-iso", "smpix.iso", "compiledb", "hosttest", "initrd",
             "busybox", "initrd-busybox", "initrd-busybox.cpio", "smpix-busybox-iso", "smpix-busybox.iso", "era-2.6.39",
             "linux", "bench", "linuxref", "ext2-tests", "disk-tests"}
# Not objects either: the disk images and logs of make test's checks and of the graders (hundreds of MiB,
# which made each handout a copy of half a GiB while make test ran).
SEED_SKIP_PREFIXES = ("handout-", "test-", "grade-")


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
    """[(lab, name, begin, end)] for every region in a file: the line indexes of its two markers."""
    found, open_, names = [], None, {}
    for i, line in enumerate(lines):
        where = f"{path}:{i + 1}"
        m = MARK.match(line)
        if not m:
            loose = LOOSE.search(line)
            if loose and loose.group(1) == "STUB":
                raise RegionError(f"{where}: a STUB marker: stubs live in {STUBS_DIR}/labN.stubs now")
            if loose:
                raise RegionError(f"{where}: a broken marker {line.strip()!r}: a marker is a line of its "
                                  "own, /* LABn: BEGIN name */ or /* LABn: END */")
            if open_ and IF0.match(line):
                raise RegionError(f"{where}: an #if 0 block inside a LAB{open_[0]} region: its stub "
                                  f"belongs in {STUBS_DIR}/lab{open_[0]}.stubs")
            continue
        lab, what, name = int(m.group(1)), m.group(2), m.group(3)
        if what == "BEGIN":
            if name is None or not re.fullmatch(NAME, name):
                raise RegionError(f"{where}: LAB{lab} BEGIN needs a name (a-z, 0-9, -): "
                                  f"/* LAB{lab}: BEGIN name */")
            if open_:
                raise RegionError(f"{where}: LAB{lab} BEGIN inside LAB{open_[0]}'s region {open_[1]!r}")
            if name in names:
                raise RegionError(f"{where}: a second region {name!r} in {path} (the first at line "
                                  f"{names[name] + 1}): names are unique in a file")
            names[name] = i
            open_ = [lab, name, i]
        elif name is not None:
            raise RegionError(f"{where}: LAB{lab} END takes no name: /* LAB{lab}: END */")
        elif not open_ or open_[0] != lab:
            raise RegionError(f"{where}: LAB{lab} END outside a LAB{lab} region")
        else:
            found.append((lab, open_[1], open_[2], i))
            open_ = None
    if open_:
        raise RegionError(f"{path}:{open_[2] + 1}: LAB{open_[0]} BEGIN {open_[1]} without an END")
    return found


def parse_stubs(text, where):
    """{(path, name): [lines]} from the text of a stub file (where: its name, for errors)."""
    stubs, cur = {}, None
    for i, line in enumerate(text.splitlines(keepends=True)):
        if line.startswith("==="):
            m = HEAD.match(line)
            if not m:
                raise RegionError(f"{where}:{i + 1}: a broken head {line.strip()!r}: === file: name ===")
            key = (m.group(1), m.group(2))
            if key in stubs:
                raise RegionError(f"{where}:{i + 1}: a second stub for {key[0]}: {key[1]}")
            cur = stubs[key] = []
        elif cur is not None:
            cur.append(line if line.endswith("\n") else line + "\n")
        elif line.strip() and not line.startswith("#"):
            raise RegionError(f"{where}:{i + 1}: text before the first head (notes start with #)")
    for body in stubs.values():
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
    return stubs


def stubs_path(lab, root=ROOT):
    return os.path.join(root, STUBS_DIR, f"lab{lab}.stubs")


def load_stubs(lab, root=ROOT):
    """lab's stubs, {(path, name): [lines]}; none if it has no stub file."""
    p = stubs_path(lab, root)
    if not os.path.exists(p):
        return {}
    return parse_stubs(open(p, encoding="utf-8").read(), os.path.relpath(p, root))


def check_stubs(lab, stubs, found):
    """Refuse a stub of lab without its region; found: {path: [(lab, name, begin, end)]}."""
    for path, name in stubs:
        mine = [r for r in found.get(path, []) if r[1] == name]
        if not mine:
            raise RegionError(f"{STUBS_DIR}/lab{lab}.stubs: a stub for {path}: {name}, which has no "
                              f"region {name!r}")
        if mine[0][0] != lab:
            raise RegionError(f"{STUBS_DIR}/lab{lab}.stubs: a stub for {path}: {name}, a region of "
                              f"lab {mine[0][0]}")


def stub_labs(root=ROOT):
    """The labs with a stub file."""
    d = os.path.join(root, STUBS_DIR)
    names = os.listdir(d) if os.path.isdir(d) else []
    return sorted(int(m.group(1)) for m in (re.fullmatch(r"lab(\d+)\.stubs", n) for n in names) if m)


# Labs whose stubs are planted bugs to be found (lab 11, the lockdep hunt): no TODO line points at them.
HUNTS = {11}


def stub_lines(lab, indent, body):
    if lab not in HUNTS and not any(f"TODO(lab{lab})" in l for l in body):
        body = [f"{indent}/* TODO(lab{lab}): see {lab_page(lab)} */\n"] + body
    return body


def lab_page(lab):
    """docs/labs/labN-*.md, the page a stub points at."""
    d = os.path.join(ROOT, "docs", "labs")
    pages = sorted(p for p in os.listdir(d) if p.startswith(f"lab{lab}-")) if os.path.isdir(d) else []
    return f"docs/labs/{pages[0]}" if pages else "docs/labs/"


def strip(text, lab, path, stubs):
    """The file with lab's regions replaced by their stubs ({(path, name): [lines]}), and how many."""
    return strip_labs(text, {lab: stubs}, path)


def strip_labs(text, stubs_of, path):
    """The file with the regions of every lab in stubs_of ({lab: {(path, name): [lines]}}) replaced
    by their stubs, and how many."""
    lines = text.splitlines(keepends=True)
    found = regions(lines, path)
    for lab, stubs in stubs_of.items():
        check_stubs(lab, {k: v for k, v in stubs.items() if k[0] == path}, {path: found})
    out, at, n = [], 0, 0
    for r_lab, name, begin, end in found:
        if r_lab not in stubs_of:
            continue
        indent = re.match(r"^\s*", lines[begin]).group(0)
        out += lines[at:begin] + stub_lines(r_lab, indent, stubs_of[r_lab].get((path, name), []))
        at, n = end + 1, n + 1
    return "".join(out + lines[at:]), n


def scan(root):
    """{path: [(lab, name, begin, end)]} for every source file of the tree with regions."""
    found = {}
    for f in tree_files(root):
        if not f.endswith(SOURCE_EXT):
            continue
        lines = open(os.path.join(root, f), encoding="utf-8").read().splitlines(keepends=True)
        r = regions(lines, f)
        if r:
            found[f] = r
    return found


def labs_of(found):
    return sorted({r[0] for rs in found.values() for r in rs})


def seed_build(out):
    src = BUILD
    if not os.path.isdir(src):
        return
    dst = os.path.join(out, "build")
    skip = lambda n: n in SEED_SKIP or n.startswith(SEED_SKIP_PREFIXES)  # noqa: E731
    for d, dirs, names in os.walk(src):
        rel = os.path.relpath(d, src)
        if rel == ".":
            dirs[:] = [x for x in dirs if not skip(x)]
            names = [x for x in names if not skip(x)]
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for n in names:
            s = os.path.join(d, n)
            if n.endswith(".img"):
                continue        # a disk image: made again by whoever needs it
            # Regular files only: tests leave device nodes and FIFOs in build/, which a copy would open.
            if os.path.isfile(s) and not os.path.islink(s):
                try:
                    shutil.copy2(s, os.path.join(dst, rel, n))
                except FileNotFoundError:
                    pass        # removed meanwhile (make test runs other checks beside): not an object


def kept_out(f):
    """Files no handout has: the answer keys (tools/labs/staff/), make test's prepared submissions
    (tools/labs/testdata/: lab 12's would grade full marks), and the stub files (already in place)."""
    return f.startswith((STAFF_DIR + "/", os.path.join(STUBS_DIR, "testdata") + "/")) or re.fullmatch(re.escape(STUBS_DIR) + r"/lab\d+\.stubs", f) is not None


def files_of(lab, found):
    """The files a student hands in for lab: those with its regions and those its stubs name."""
    return sorted({p for p, rs in found.items() if any(r[0] == lab for r in rs)} | {p for p, _ in load_stubs(lab)})


def write_handout(lab, out, seed, from_dir=None):
    """Lab's handout in out: the regions of lab and of every later lab replaced by their stubs (the
    labs are cumulative: no later solution is inside). from_dir: a student's tree, whose files of the
    earlier labs (files_of()) are copied over the teacher's, so that the student carries their own
    work forward."""
    found = scan(ROOT)
    later = [k for k in sorted(set(labs_of(found)) | set(stub_labs(ROOT))) if k >= lab]
    if lab not in labs_of(found):
        pages = glob.glob(os.path.join(ROOT, "docs", "labs", f"lab{lab}-*.md"))
        if pages:                       # a lab with no code to write (lab 12, the eras)
            raise RegionError(f"lab {lab} asks for no code, so it has no handout of its own: work in your "
                              f"tree of the lab before it ({os.path.relpath(pages[0], ROOT)})")
        raise RegionError(f"lab {lab} has no /* LAB{lab}: BEGIN name */ regions")
    stubs_of = {k: load_stubs(k) for k in later}
    for k, stubs in stubs_of.items():
        check_stubs(k, stubs, found)
    carried = []
    if from_dir:
        carried = sorted({f for k in labs_of(found) if k < lab for f in files_of(k, found)})
        missing = [f for f in carried if not os.path.isfile(os.path.join(from_dir, f))
                   or os.path.islink(os.path.join(from_dir, f))]
        if missing:
            raise RegionError(f"{from_dir} lacks the earlier labs' files (or gives links): {', '.join(missing)}")
    if os.path.exists(out):
        shutil.rmtree(out)
    total = 0
    for f in tree_files(ROOT):
        if kept_out(f):
            continue
        src, dst = os.path.join(ROOT, f), os.path.join(out, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if f in carried:
            src = os.path.join(from_dir, f)
        if f in found and f not in carried:
            new, n = strip_labs(open(src, encoding="utf-8").read(), stubs_of, f)
            if n:
                total += n
                with open(dst, "w", encoding="utf-8") as w:
                    w.write(new)
                shutil.copymode(src, dst)
                print(f"handout: {f}: {n} region{'s' if n > 1 else ''} of labs {lab}-{later[-1]} left to the student")
                continue
        shutil.copy2(src, dst, follow_symlinks=False)
    for f in carried:
        print(f"handout: {f}: the student's own, from {from_dir}")
    copy_dir_times(out)
    if seed:
        seed_build(out)
    return total


def copy_dir_times(out):
    """Each directory of the copy gets its original's times: make compares a directory's time too
    (the initrd depends on user/root's folders), and a copied folder is newer than any seeded object,
    so every handout rebuilt its initrd for nothing."""
    for d, _, _ in os.walk(out):
        orig = os.path.join(ROOT, os.path.relpath(d, out))
        if os.path.isdir(orig):
            st = os.stat(orig)
            os.utime(d, ns=(st.st_atime_ns, st.st_mtime_ns))


def main():
    ap = argparse.ArgumentParser(description="write the student tree of one lab")
    ap.add_argument("lab", nargs="?", type=int)
    ap.add_argument("--out")
    ap.add_argument("--seed-build", action="store_true")
    ap.add_argument("--from", dest="from_dir", help="a student's tree: carry their earlier labs' files forward")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    try:
        if a.list:
            found = scan(ROOT)
            for lab in sorted(set(labs_of(found)) | set(stub_labs(ROOT))):
                stubs = load_stubs(lab)
                check_stubs(lab, stubs, found)
                where = [f"{p}:{b + 1} {name}{'' if stubs.get((p, name)) else ' (TODO)'}"
                         for p, rs in sorted(found.items()) for r_lab, name, b, _ in rs if r_lab == lab]
                print(f"lab {lab}: " + ", ".join(where))
            return 0
        if a.lab is None:
            ap.error("which lab? (make handout LAB=n)")
        out = a.out or os.path.join(BUILD, f"handout-lab{a.lab}")
        n = write_handout(a.lab, out, a.seed_build, a.from_dir)
        print(f"handout: lab {a.lab}: {n} regions stubbed; the student tree is {os.path.relpath(out)}")
        return 0
    except RegionError as e:
        print(f"handout: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
