"""The docs that point into the source: docs/reading.md's stops (tools/test/reading.py) name files,
functions and line ranges that are true of the tree now; docs/bkl.md's table of BKL sites is
tools/build/bklsurvey's output now. Nothing boots."""
import os
import re
import subprocess
import sys


def bkl_sites_table(h):
    name = "docs[docs/bkl.md carries bklsurvey's table as it is now]"
    if not h.wanted(name):
        return
    doc = open(os.path.join(h.ROOT, "docs", "bkl.md")).read()
    plain = subprocess.run([os.path.join(h.ROOT, "tools", "build", "bklsurvey")], capture_output=True,
                           text=True, timeout=60).stdout
    m = re.search(r"<!-- bklsurvey:begin -->\n```\n(.*?)```\n<!-- bklsurvey:end -->", doc, re.S)
    h.record(name, bool(m) and m.group(1) == plain,
             "the table in docs/bkl.md differs from tools/build/bklsurvey's output: "
             "run tools/build/bklsurvey --update-doc docs/bkl.md")


def run(h):
    bkl_sites_table(h)
    reading_path(h)


def reading_path(h):
    name = "docs[docs/reading.md: every file and function it names exists and its line ranges are current]"
    if not h.wanted(name):
        return
    here = os.path.join(h.ROOT, "tools", "test")
    if here not in sys.path:
        sys.path.insert(0, here)
    import reading
    problems = reading.check(h.ROOT)
    shown = problems[:6] + ([f"... and {len(problems) - 6} more"] if len(problems) > 6 else [])
    h.record(name, not problems,
             " | ".join(shown) + " (python3 tools/test/reading.py --update rewrites stale ranges)")
