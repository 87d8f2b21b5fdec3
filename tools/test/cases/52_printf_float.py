"""printf's floating formats (%f %e %g %a, issue 33): a table of formats and arguments runs, in one
boot, through the shell's printf builtin and /bin/printf (the same code, user/bin/sh/printf.c), and
each must print what the host prints, with the same status. The reference is the host's coreutils
printf (/usr/bin/printf), computed now; where dash prints otherwise (coreutils reads long doubles,
dash and smpix doubles: %.20f of 0.1, %a, 1e-320), dash's output is the reference, and the check's
name says so. Stderr is not compared: the messages are dash's, checked on their own. Then libctest:
the libc's snprintf and strtod from C (user/tests/libctest.c), whose expectations are glibc's: the same
source built on the host with glibc passes them too."""
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from testlib import Session

# (format, arguments): each runs as `printf FORMAT ARGS...`. The format ends with a newline.
TABLE = [
    ("%05.1f\\n", ["3.14159"]),
    ("%f %F\\n", ["3.14159", "2"]),
    ("%.2f %.2f %.2f\\n", ["0.125", "0.375", "0.005"]),       # ties on the exact binary value
    ("%.0f %.0f %.0f %.0f\\n", ["0.5", "1.5", "2.5", "3.5"]),  # half to even
    ("%.1f %.3f\\n", ["0.05", "2.0005"]),
    ("%e %E %.0e %#.0e\\n", ["123.456", "123.456", "2.5", "7"]),
    ("%+e %+e % e\\n", ["1.5", "-1.5", "1.5"]),
    ("%g %g %g %g\\n", ["1e-7", "123456789", "0.0001", "100000"]),
    ("%g %g %G %g\\n", ["1000000", "1e21", "1e-5", "0.00001234"]),
    ("%#g %#g %#.3g %#.0f\\n", ["2", "1.5", "1", "3"]),
    ("%#g %#.4g %#.5g\\n", ["999999.5", "9999.7", "9999.96"]),
    ("%.0g %.1g %.17g %.3g\\n", ["12", "0.95", "0.1", "1234567"]),
    ("%f\\n", ["1e21"]),
    ("%f\\n", ["1e300"]),
    ("%.20f %.17g\\n", ["0.1", "0.1"]),
    ("%.30f\\n", ["1e-7"]),
    ("%e %g\\n", ["1.7976931348623157e308", "2.2250738585072014e-308"]),
    ("%f %g %e\\n", ["-0.0", "-0", "-0.0"]),
    ("%f %e %g %F %G %E\\n", ["inf", "-inf", "Infinity", "inf", "-inf", "INF"]),
    ("%f %g %+f %E\\n", ["nan", "-nan", "NaN", "nan"]),
    ("[%8.3f] [%-8.3f] [%08.3f] [%+08.2f] [% 8.2f]\\n", ["3.14159"] * 5),
    ("[%08.3f] [%-+10.2e] [%012.4G]\\n", ["-3.14159", "-31.4159", "-0.000031416"]),
    ("[%06f] [%-6f] [%06g] [%+06e]\\n", ["inf", "-inf", "nan", "inf"]),
    ("[%*.*f] [%.*e] [%-*g] [%.*f]\\n", ["9", "2", "3.14159", "1", "2.5", "8", "1.5", "-1", "2.5"]),
    ("%f %f %f %f\\n", ["1e3", " 2.5", "0x1p3", "+.5"]),
    ("%g %g %g\\n", ["0X1.8P+1", "1E-2", "'A"]),
    ("%a %A %a %a\\n", ["3.14", "1.5", "1", "-0.0"]),
    ("%.0a %.1a %#.0a %.3a\\n", ["1.5", "3.14", "1", "1e-320"]),
    ("%a %a\\n", ["1e21", "0.1"]),
    ("%g %e %f\\n", ["1e-320", "4.9e-324", "2.5e-310"]),
    ("%f %g\\n", ["1e400", "-1e999"]),
    ("%f %f\\n", ["abc", "1.5x"]),
    ("%f|%e|%g\\n", []),
    ("%.2f %d %s %.1e\\n", ["1", "2", "three", "4"]),
    ("%5.2f%%\\n", ["33.333", "66.666"]),                    # the format again for more arguments
    ("%.3f\\n", ["0.0005"]),
    ("%.15g %.16g %.17g\\n", ["0.3", "0.3", "0.3"]),
    ("%.10f %.10e\\n", ["123456789.123456789", "9.87654321e-200"]),
]


def host(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30,
                       env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
    return p.stdout.decode(errors="replace") + f"[status={p.returncode}]\n"


def references(fmt, args):
    """What the guest must print for one row, and which printf that is."""
    core = host(["/usr/bin/printf", fmt] + args)
    dash = host(["dash", "-c", 'printf "$@"', "printf", fmt] + args)
    return (core, "coreutils") if core == dash else (dash, "dash (coreutils's long double differs)")


def run_rows(h, s):
    for i, (fmt, args) in enumerate(TABLE):
        want, ref = references(fmt, args)
        line = " ".join(shlex.quote(a) for a in [fmt] + args)
        for how, cmd in (("builtin", "printf"), ("/bin/printf", "/bin/printf")):
            name = f"printf-float[{how}: printf {line}] as {ref}"
            if not h.wanted(name):
                continue
            got = s.run(f"{cmd} {line} 2>/dev/null; echo \"[status=$?]\"", timeout=30)
            h.record(name, got == want, f"want {want!r}, got {got!r}")


MESSAGES = [
    # dash's words (stderr), the status 1, and the value printed anyway
    ("printf %f abc", "printf: abc: expected numeric value\n0.000000"),
    ("printf %.1f 1.5x", "printf: 1.5x: not completely converted\n1.5"),
    ("printf %g 1e400", "printf: 1e400: Math result not representable\ninf"),
    ("printf %.1f 0.0000000000000000000000000000000000000000000000000001e-300",
     "printf: 0.0000000000000000000000000000000000000000000000000001e-300: Math result not representable\n0.0"),
]


def run_messages(h, s):
    for cmd, want in MESSAGES:
        name = f"printf-float[message: {cmd}]"
        if not h.wanted(name):
            continue
        got = s.run(f"{cmd} 2>&1; echo \" [status=$?]\"", timeout=30)
        h.record(name, got == want + " [status=1]\n", f"got {got!r}")


LIBCTEST_LINE = re.compile(r"^libctest: (.*?) (ok|FAIL .*)$", re.M)


def run_libctest(h, s):
    if not h.wanted("libctest["):
        return
    out = s.run("libctest; echo \"[status=$?]\"", timeout=60)
    results = LIBCTEST_LINE.findall(out or "")
    for test, status in results:
        h.record(f"libctest[{test}]", status == "ok", status)
    ok = out is not None and re.search(r"^libctest: summary \d+ passed, 0 failed\n\[status=0\]\n", out, re.M)
    h.record("libctest[all checks ran and passed]", bool(ok) and len(results) >= 25, f"got {out!r}")


def libctest_on_glibc(h):
    """libctest's expectations are glibc's: the same source, built with the host's gcc and glibc, passes."""
    name = "libctest[the same checks pass with the host's glibc]"
    if not h.wanted(name):
        return
    if not shutil.which("gcc"):
        h.skip(name, "no gcc on the host")
        return
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "libctest")
        built = subprocess.run(["gcc", "-O1", "-w", "-o", exe, os.path.join(h.ROOT, "user/tests/libctest.c")],
                               capture_output=True, text=True, timeout=120)
        if built.returncode != 0:
            h.record(name, False, "gcc: " + built.stderr.strip()[-300:])
            return
        p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    fails = [line for line in p.stdout.splitlines() if " FAIL " in line]
    h.record(name, p.returncode == 0 and bool(re.search(r"^libctest: summary \d+ passed, 0 failed$", p.stdout, re.M)),
             "; ".join(fails[:3]) or p.stdout[-300:])


def run(h):
    libctest_on_glibc(h)
    if not h.wanted("printf-float[") and not h.wanted("libctest["):
        return
    if not shutil.which("dash") or not os.path.exists("/usr/bin/printf"):
        h.skip("printf-float[", "dash or coreutils' printf is not on the host (tools/build/deps.sh installs them)")
        return
    s = Session(h, "printf-float", cpus=2, timeout=300)
    if not s.ok:
        h.record("printf-float[boot to a shell]", False, "no prompt")
        s.q.kill()
        return
    run_rows(h, s)
    run_messages(h, s)
    run_libctest(h, s)
    problems = s.power_off()
    h.record("printf-float[poweroff]", not problems, "; ".join(problems))
