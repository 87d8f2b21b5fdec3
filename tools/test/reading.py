#!/usr/bin/env python3
"""Keep docs/reading.md true: every stop names files and definitions that exist, at the lines it says.

docs/reading.md is a reading path through the source, one stop per heading:

    ### 7. kernel/locking/bkl.c: lock_kernel_site(), unlock_kernel_site() (lines 133-190)

A name in a heading is one of:

    f()            a C function, or a function-like #define (both are found if both exist)
    struct s       a C struct definition
    MACRO(name)    a definition written through a macro at column 0, such as KTEST(name)
    name           in C, a file-scope variable or an object-like #define; in a .S file, a label
                   (name() is taken as the label too)

A C definition runs from the line with its name and `(` (the return type on the line above
when the name starts its line, OpenBSD-style) to its closing brace: the next `}` at column 0
when its `{` stands alone at column 0, else the brace that matches. A label runs to the next
global label of its file (its comment and directives left out), or to the end of the file.
A name defined more than once (#ifdef alternatives) must have all its definitions covered.

A stop's range is current when it ends exactly where its last definition ends and starts no
later than its first definition and no earlier than the comment (and, in assembly, the
directives; in C, preprocessor conditionals) directly above that definition. Anything else is
stale, which is what code that moved looks like. The page's size line ("**N stops in N files,
N lines**") must agree with the stops.

    python3 tools/test/reading.py             check; one line per problem; exit 1 if any
    python3 tools/test/reading.py --update    rewrite the stale ranges (and the size line) in place

tools/test/cases/13_docs.py runs the check in the harness (`python3 tools/test/harness.py docs`).
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = "docs/reading.md"

HEADING = re.compile(r"^###\s+(\d+)\.\s+(\S+?):\s+(.+?)\s+\(lines\s+(\d+)-(\d+)\)\s*$")
NUMBERED = re.compile(r"^###\s+\d+\.")
SIZE = re.compile(r"\*\*(\d+) stops in (\d+) files, ([\d,]+) lines\*\*")
PATH_IN_CODE = re.compile(r"`((?:boot|kernel|drivers|fs|user|tools|docs)/[\w./-]*\w)`")

COMMENT = re.compile(r"^\s*(/\*|\*|//)|\*/\s*$")
PP_COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")
ASM_DIRECTIVE = re.compile(r"^\s*\.[A-Za-z_][\w.]*(\s|$)")
ASM_GLOBAL = re.compile(r"^\s*\.glob(?:a)?l\s+(.*)$")
IDENT = re.compile(r"^[A-Za-z_]\w*$")


class Stop:
    """One heading: its place in the page, what it names, and the range it gives."""

    def __init__(self, lineno, number, path, names, start, end):
        self.lineno, self.number, self.path, self.names = lineno, number, path, names
        self.start, self.end = start, end

    def where(self):
        return f"{DOC}:{self.lineno}: stop {self.number} ({self.path})"


def is_asm(path):
    return path.endswith((".S", ".s"))


def split_names(text):
    """'a(), struct b, KTEST(c)' -> ['a()', 'struct b', 'KTEST(c)']: commas outside parentheses."""
    names, depth, cur = [], 0, ""
    for ch in text.replace("`", ""):
        if ch == "," and depth == 0:
            names.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    names.append(cur.strip())
    return [n for n in names if n]


def parse(text):
    """(stops, problems) of the page's text. A numbered ### heading that does not parse is a problem."""
    stops, problems, k = [], [], 0
    for i, line in enumerate(text.splitlines(), 1):
        if not NUMBERED.match(line):
            continue
        k += 1
        m = HEADING.match(line)
        if not m:
            problems.append(f"{DOC}:{i}: a stop's heading not in the form "
                            f"'### N. path: name(), name() (lines A-B)': {line.strip()}")
            continue
        stops.append(Stop(i, int(m.group(1)), m.group(2), split_names(m.group(3)),
                          int(m.group(4)), int(m.group(5))))
        if stops[-1].number != k:
            problems.append(f"{stops[-1].where()}: numbered {stops[-1].number}, but it is stop {k}")
    return stops, problems


# ---- finding definitions: each is (first line, last line), 1-based, inclusive ----------------------

def _skip_noise(text, i):
    """Index of the next character of text from i that is not space, a comment or an __attribute__."""
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = len(text) if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j + 1
        elif text.startswith("__attribute__", i):
            i = _match(text, text.find("(", i), "(", ")") + 1
        else:
            return i
    return i


def _match(text, i, open_ch, close_ch):
    """Index of the close_ch matching the open_ch at i, skipping comments, strings and characters."""
    depth = 0
    while i < len(text):
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = len(text) if j < 0 else j + 2
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j + 1
            continue
        if c in "\"'":
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) - 1


class Source:
    """A file's lines, with the offsets that turn a character index into a line number."""

    def __init__(self, text):
        self.text = text
        self.lines = text.split("\n")
        self.offsets = []
        off = 0
        for line in self.lines:
            self.offsets.append(off)
            off += len(line) + 1

    def line_of(self, index):
        lo, hi = 0, len(self.offsets) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.offsets[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def body_end(self, brace):
        """Last line of a body whose { is at index brace: the next column-0 } if the { stands alone
        at column 0, else the matching brace."""
        ln = self.line_of(brace)
        if self.lines[ln - 1].strip() == "{" and self.lines[ln - 1].startswith("{"):
            for k in range(ln, len(self.lines)):
                if self.lines[k].startswith("}"):
                    return k + 1
            return len(self.lines)
        return self.line_of(_match(self.text, brace, "{", "}"))


def _code_at_column0(line):
    return bool(line) and line[0] not in " \t#/*{}" and not line.startswith("extern")


def c_functions(src, name):
    found = []
    rx = re.compile(rf"(?<![\w.>]){re.escape(name)}\s*\(")
    for i, line in enumerate(src.lines):
        if not _code_at_column0(line):
            continue
        m = rx.search(line)
        if not m:
            continue
        paren = src.offsets[i] + m.end() - 1
        after = _skip_noise(src.text, _match(src.text, paren, "(", ")") + 1)
        if after >= len(src.text) or src.text[after] != "{":
            continue                                    # a prototype, or a call
        first = i + 1
        prev = src.lines[i - 1] if i else ""
        if m.start() == 0 and prev.strip() and not prev[0].isspace() and not prev.startswith("#") \
                and not re.search(r"[;{},]\s*$|\*/\s*$", prev):
            first = i                                   # the return type on its own line above
        found.append((first, src.body_end(after)))
    return found


def c_macros(src, name, function_like):
    found = []
    rx = re.compile(rf"^\s*#\s*define\s+{re.escape(name)}" + (r"\(" if function_like else r"(?![\w(])"))
    for i, line in enumerate(src.lines):
        if rx.match(line):
            end = i
            while src.lines[end].rstrip().endswith("\\") and end + 1 < len(src.lines):
                end += 1
            found.append((i + 1, end + 1))
    return found


def c_structs(src, name):
    found = []
    rx = re.compile(rf"^(typedef\s+)?struct\s+{re.escape(name)}\b[^;]*$")
    for i, line in enumerate(src.lines):
        if not rx.match(line):
            continue
        brace = src.text.find("{", src.offsets[i])
        semi = src.text.find(";", src.offsets[i])
        if brace < 0 or (0 <= semi < brace):
            continue                                    # a declaration, not the definition
        end = src.line_of(_match(src.text, brace, "{", "}"))
        found.append((i + 1, end))
    return found


def c_macro_made(src, macro, name):
    found = []
    rx = re.compile(rf"^{re.escape(macro)}\(\s*{re.escape(name)}\s*\)")
    for i, line in enumerate(src.lines):
        m = rx.match(line)
        if not m:
            continue
        after = _skip_noise(src.text, src.offsets[i] + m.end())
        if after < len(src.text) and src.text[after] == "{":
            found.append((i + 1, src.body_end(after)))
    return found


def c_variables(src, name):
    found = []
    rx = re.compile(rf"(?<![\w.>(]){re.escape(name)}\s*(\[[^\]]*\]\s*)*(=|;|__\w+)")
    for i, line in enumerate(src.lines):
        if not (line and line[0] not in " \t#/*{" and not line.startswith(("extern", "typedef"))):
            continue
        m = rx.search(line)
        if not m:
            continue
        first = i
        if line.startswith("}"):                        # } name ...: an anonymous struct's variable
            first = next((k for k in range(i - 1, -1, -1)
                          if src.lines[k].rstrip().endswith("{") and _code_at_column0(src.lines[k])), i)
        # To the ; that ends the definition, past any initializer in braces.
        k = src.offsets[i] + m.start()
        while k < len(src.text) and src.text[k] != ";":
            k = _match(src.text, k, "{", "}") + 1 if src.text[k] == "{" else k + 1
        found.append((first + 1, src.line_of(k)))
    return found


def asm_labels(src, name):
    globals_ = set()
    for line in src.lines:
        m = ASM_GLOBAL.match(line)
        if m:
            globals_.update(s.strip() for s in m.group(1).split(","))
    label = re.compile(r"^\s*([A-Za-z_.$][\w.$]*):")
    found = []
    for i, line in enumerate(src.lines):
        m = label.match(line)
        if not m or m.group(1) != name:
            continue
        nxt = next((k for k in range(i + 1, len(src.lines))
                    if (lm := label.match(src.lines[k])) and lm.group(1) in globals_), None)
        end = lead_start(src, nxt, True) - 1 if nxt is not None else len(src.lines)
        while end > i + 1 and not src.lines[end - 1].strip():
            end -= 1
        found.append((i + 1, end))
    return found


def lead_start(src, i, asm):
    """First line of the comment (and directives, or #if lines) directly above 0-based line i, 1-based."""
    k = i
    while k > 0:
        above = src.lines[k - 1]
        if not above.strip():
            break
        if COMMENT.search(above) or PP_COND.match(above) or (asm and ASM_DIRECTIVE.match(above)):
            k -= 1
            continue
        break
    return k + 1


def definitions(src, path, name):
    """Every (first, last) line of name's definitions in src, or [] if none."""
    if is_asm(path):
        label = name[:-2] if name.endswith("()") else name
        return asm_labels(src, label) if IDENT.match(label) else []
    m = re.fullmatch(r"([A-Za-z_]\w*)\(\)", name)
    if m:
        return sorted(c_functions(src, m.group(1)) + c_macros(src, m.group(1), True))
    m = re.fullmatch(r"struct\s+([A-Za-z_]\w*)", name)
    if m:
        return c_structs(src, m.group(1))
    m = re.fullmatch(r"([A-Z_][A-Z0-9_]*)\(\s*([A-Za-z_]\w*)\s*\)", name)
    if m:
        return c_macro_made(src, m.group(1), m.group(2))
    if IDENT.match(name):
        return sorted(c_variables(src, name) + c_macros(src, name, False))
    return []


# ---- checking and updating ----------------------------------------------------------------------

def fmt_defs(name, defs):
    return f"{name} at " + " and ".join(f"{a}-{b}" for a, b in defs)


def examine(root, stop, sources):
    """(problems, (lowest valid start, exact end) or None) for one stop."""
    path = os.path.join(root, stop.path)
    if stop.path.startswith("/") or ".." in stop.path.split("/") or not os.path.isfile(path):
        return [f"{stop.where()}: no such file {stop.path}"], None
    if stop.path not in sources:
        with open(path, encoding="utf-8", errors="replace") as f:
            sources[stop.path] = Source(f.read())
    src = sources[stop.path]
    problems, spans = [], []
    for name in stop.names:
        defs = definitions(src, stop.path, name)
        if not defs:
            kind = "label" if is_asm(stop.path) else "definition"
            problems.append(f"{stop.where()}: no {kind} of {name} in {stop.path}")
        spans.append((name, defs))
    if problems:
        return problems, None
    first = min(a for _, defs in spans for a, _ in defs)
    last = max(b for _, defs in spans for _, b in defs)
    lowest = lead_start(src, first - 1, is_asm(stop.path))
    if not (lowest <= stop.start <= first and stop.end == last):
        where = "; ".join(fmt_defs(n, d) for n, d in spans)
        starts = f"at {first}" if lowest == first else f"between {lowest} and {first}"
        problems.append(f"{stop.where()}: lines {stop.start}-{stop.end} are stale: {where}; the range must "
                        f"end at {last} and start {starts} (--update makes it {lowest}-{last})")
    return problems, (lowest, last)


def size_of(stops):
    """(stops, files, distinct lines) of the path."""
    lines = {}
    for s in stops:
        lines.setdefault(s.path, set()).update(range(s.start, s.end + 1))
    return len(stops), len(lines), sum(len(v) for v in lines.values())


def size_text(stops):
    n, files, lines = size_of(stops)
    return f"**{n} stops in {files} files, {lines:,} lines**"


def check_text(root, text):
    """Every problem with the page's text, one string each; [] when it is true to the tree."""
    stops, problems = parse(text)
    if not stops:
        problems.append(f"{DOC}: no stops (headings like '### 1. path: name() (lines A-B)')")
    sources = {}
    for s in stops:
        problems += examine(root, s, sources)[0]
    for i, line in enumerate(text.splitlines(), 1):
        for p in PATH_IN_CODE.findall(line):
            if not os.path.exists(os.path.join(root, p)):
                problems.append(f"{DOC}:{i}: `{p}` does not exist")
    m = SIZE.search(text)
    if not m:
        problems.append(f"{DOC}: no size line such as {size_text(stops)}")
    elif stops and m.group(0) != size_text(stops):
        problems.append(f"{DOC}: the size line says {m.group(0)}, the stops make {size_text(stops)}")
    return problems


def check(root=ROOT, doc=None):
    with open(doc or os.path.join(root, DOC), encoding="utf-8") as f:
        return check_text(root, f.read())


def update_text(root, text):
    """(new text, ranges rewritten, problems --update cannot fix)."""
    stops, problems = parse(text)
    lines = text.split("\n")
    sources, changed = {}, 0
    for s in stops:
        found, bounds = examine(root, s, sources)
        if bounds is None:
            problems += found
            continue
        if found:                       # stale: rewrite from the comment above to the closing brace
            s.start, s.end = bounds
            lines[s.lineno - 1] = re.sub(r"\(lines\s+\d+-\d+\)\s*$", f"(lines {s.start}-{s.end})",
                                         lines[s.lineno - 1])
            changed += 1
    new = "\n".join(lines)
    if SIZE.search(new) and stops:
        new = SIZE.sub(lambda _: size_text(stops), new, count=1)
    return new, changed, problems


def update(root=ROOT, doc=None):
    path = doc or os.path.join(root, DOC)
    with open(path, encoding="utf-8") as f:
        old = f.read()
    new, changed, problems = update_text(root, old)
    if new != old:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return changed, problems


def main(argv=None):
    ap = argparse.ArgumentParser(description="check docs/reading.md against the source, or bring its line ranges up to date")
    ap.add_argument("--update", action="store_true", help="rewrite stale line ranges and the size line in place")
    ap.add_argument("--root", default=ROOT, help="the tree to check (default: this one)")
    ap.add_argument("--doc", help=f"the page (default: ROOT/{DOC})")
    args = ap.parse_args(argv)
    if args.update:
        changed, problems = update(args.root, args.doc)
        print(f"{DOC}: {changed} range{'s' if changed != 1 else ''} rewritten"
              + (f"; {len(problems)} problem{'s' if len(problems) != 1 else ''} for a person to fix:"
                 if problems else ""))
    problems = check(args.root, args.doc)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''}; "
              "python3 tools/test/reading.py --update rewrites stale ranges")
        return 1
    with open(args.doc or os.path.join(args.root, DOC), encoding="utf-8") as f:
        n, files, lines = size_of(parse(f.read())[0])
    print(f"{DOC}: {n} stops in {files} files, {lines} lines: every name found, every range current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
