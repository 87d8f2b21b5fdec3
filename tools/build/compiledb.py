#!/usr/bin/env python3
"""make compile_commands.json: the compile commands clangd and clang-tidy read, from make itself.

`make -nB V=1 all hosttest` prints every command the build would run, without running one; each
gcc command that compiles a C or assembly file becomes an entry (one per source file: a host test
compiles its test and the kernel files it tests in one command). The kernel's entries come first,
so that a tool taking the first entry of a file sees the kernel's flags (-ffreestanding), not a
host test's. Nothing is built: build/ is left alone. (bear did this by watching a full build,
two minutes of it; make already knows the commands.)
"""
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = re.compile(r"^[\w./-]+\.(c|S)$")
# The host tests' Makefile rule names the kernel files each one tests with a shell substitution
# that `make -n` prints unexpanded: read the file's "// TESTS:" line as the shell would.
TESTS_OF = re.compile(r"\$\(sed -n '1s\|\^// TESTS:\|\|p' (\S+)\)")


def tested_files(match):
    with open(os.path.join(ROOT, match.group(1))) as f:
        first = f.readline()
    return first[len("// TESTS:"):].strip() if first.startswith("// TESTS:") else ""


def entries(commands):
    for line in commands.splitlines():
        line = TESTS_OF.sub(tested_files, line.strip())
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if not words or os.path.basename(words[0]) not in ("gcc", "cc", "clang"):
            continue
        sources = [w for w in words[1:] if SOURCE.match(w) and os.path.exists(os.path.join(ROOT, w))]
        for src in sources:
            args = [w for w in words if w == src or w not in sources]
            yield {"directory": ROOT, "file": src, "arguments": args}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "compile_commands.json")
    p = subprocess.run(["make", "--no-print-directory", "-nB", "V=1", "BUILD=build/compiledb", "all", "hosttest"],
                       cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"compiledb: make -n failed: {p.stderr.strip()[-500:]}")
    db = list(entries(p.stdout))
    if not db:
        sys.exit("compiledb: make -n printed no compile command")
    with open(out, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    print(f"compiledb: {len(db)} entries in {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
