"""The measurements of bench/run, on data bench/run has made in a temporary folder; prints the
report (Markdown) that BENCHMARKS.md is written from. Run through bench/run, not by hand."""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import interleaved, loadavg, run_once  # noqa: E402

PROBLEMS = ["lieges-of-legendre", "nim", "powers-of-two", "s-nim", "set-nim"]

args = None
lines = []
verdicts = []  # (issue, target, figure, verdict)
issue = ""  # the issue the running section measures


def out(text=""):
    lines.append(text)
    print(text, flush=True)


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    out(f"- machine: {os.cpu_count()} cores ({model}), {mem_kb / 2**20:.0f} GiB, "
        f"{platform.system()} {platform.release()}; {rustc}")
    out(f"- runs: {args.runs} measured rounds per table after one warm-up round, commands "
        "interleaved; medians shown")


def section(title):
    out()
    out(f"## {title}")
    out()
    out(f"load average (1 min) at start: {loadavg()}")
    out()


def end_section():
    out()
    out(f"load average (1 min) at end: {loadavg()}")


def ms(seconds):
    return f"{seconds * 1e3:.1f} ms"


def us(seconds):
    return f"{seconds * 1e6:.1f} µs"


def table(header, rows):
    out("| " + " | ".join(header) + " |")
    out("|" + "---|" * len(header))
    for row in rows:
        out("| " + " | ".join(str(c) for c in row) + " |")


def w(path):
    return os.path.join(args.work, path)


def grundy(*words):
    return [args.grundy, *words]


def in_work(commands):
    """Runs every command in the work folder, where no runner.toml is: grundy's defaults."""
    return [(name, dict(spec, cwd=args.work)) for name, spec in commands]


def suite_bytes(folder, ext=".in"):
    total = largest = 0
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(ext):
                size = os.path.getsize(os.path.join(root, name))
                total += size
                largest = max(largest, size)
    return total, largest


def file_list(folder, name, exts):
    paths = sorted(
        os.path.join(root, f)
        for root, _, files in os.walk(folder)
        for f in files
        if f.endswith(exts)
    )
    with open(w(name), "w") as f:
        f.write("\n".join(paths) + "\n")
    return w(name)


def verdict(target, figure, met):
    """met: True, False, or None (not measured). Filed under the issue of the section running."""
    said = "not measured" if met is None else "met" if met else "**not met**"
    verdicts.append((issue, target, figure, said))


def check_suite():
    section("`check` on the ~200 MB suite, against the parse-only baseline")
    suite = w("suite200")
    total, largest = suite_bytes(suite)
    n = sum(1 for _, _, fs in os.walk(suite) for f in fs if f.endswith(".in"))
    out(f"Suite: {n} cases, {total / 1e6:.1f} MB of input (largest case {largest / 1e3:.0f} kB), "
        "expected outputs from the built-in solver (a speed benchmark, not a correctness "
        "fixture). Baseline: `bench/c/parse_only.c` (-O2), one core, reading every file with "
        "one read() and parsing every integer.")
    out()
    inputs = file_list(suite, "in.list", (".in",))
    both = file_list(suite, "in-out.list", (".in", ".out"))
    with open(inputs) as f:
        paths = f.read().split()
    for half in (0, 1):
        with open(w(f"in-half{half}.list"), "w") as f:
            f.write("\n".join(paths[half::2]) + "\n")
    two = (f"{w('parse_only')} < {w('in-half0.list')} > /dev/null & "
           f"{w('parse_only')} < {w('in-half1.list')} > /dev/null; wait")
    cmds = [
        ("C parse-only, inputs", dict(argv=[w("parse_only")], stdin=inputs)),
        ("C parse-only, inputs, 2 processes (half the files each)",
         dict(argv=["bash", "-c", two])),
        ("C parse-only, inputs + expected", dict(argv=[w("parse_only")], stdin=both)),
        ("grundy check -j 2", dict(argv=grundy("check", "--fixtures", suite, "-q", "-j", "2"))),
        ("grundy check -j 1", dict(argv=grundy("check", "--fixtures", suite, "-q", "-j", "1"))),
    ]
    res = interleaved(in_work(cmds), args.runs)
    base = res["C parse-only, inputs"]
    rows = []
    for name, m in res.items():
        rows.append([name, ms(m.wall), f"{total / 1e6 / m.wall:.0f} MB/s", ms(m.cpu),
                     f"{m.wall / base.wall:.2f}×", f"{m.cpu / base.cpu:.2f}×",
                     f"{ms(m.spread()[0])} – {ms(m.spread()[1])}"])
    table(["command", "wall (median)", "input rate", "CPU (median)", "wall / baseline",
           "CPU / baseline", "wall min – max"], rows)
    j2, j1 = res["grundy check -j 2"], res["grundy check -j 1"]
    halves = res["C parse-only, inputs, 2 processes (half the files each)"]
    out()
    out(f"Scaling: `-j 1` / `-j 2` wall = {j1.wall / j2.wall:.2f}× (CPU {j1.cpu:.3f} s vs "
        f"{j2.cpu:.3f} s). What the machine offered a second process meanwhile: the baseline "
        f"split over 2 processes ran {base.wall / halves.wall:.2f}× faster than on one, so "
        f"`-j 2` against that split: {j2.wall / halves.wall:.2f}× wall.")
    ratio = j2.wall / base.wall
    verdict("`check` (all cores) on ~200 MB ≤ 1.5× the one-core parse-only baseline",
            f"{ratio:.2f}× wall ({ms(j2.wall)} vs {ms(base.wall)}); CPU {j2.cpu / base.cpu:.2f}×; "
            f"the split baseline ran {base.wall / halves.wall:.2f}× faster on 2 processes",
            ratio <= 1.5)
    end_section()


def tiny():
    section("Per-case overhead: `check` on 5,000 tiny cases")
    cmds = [
        ("grundy check, 1 tiny case", dict(argv=grundy("check", "--fixtures", w("tiny1"), "-q"))),
        ("grundy check -j 2, 5,000 tiny cases",
         dict(argv=grundy("check", "--fixtures", w("tiny5000"), "-q", "-j", "2"))),
        ("grundy check -j 1, 5,000 tiny cases",
         dict(argv=grundy("check", "--fixtures", w("tiny5000"), "-q", "-j", "1"))),
        ("C parse-only over the same 10,000 files",
         dict(argv=[w("parse_only")], stdin=file_list(w("tiny5000"), "tiny.list", (".in", ".out")))),
    ]
    res = interleaved(in_work(cmds), args.runs)
    one = res["grundy check, 1 tiny case"]
    rows = []
    for name, m in res.items():
        if m is one:
            rows.append([name + " (start-up)", ms(m.wall), "", "", f"{ms(m.cpu)} in all"])
            continue
        marginal = "" if name.startswith("C ") else us((m.wall - one.wall) / 4999)
        rows.append([name, ms(m.wall), us(m.wall / 5000), marginal, us(m.cpu / 5000)])
    table(["command", "wall (median)", "wall per case", "wall per case minus start-up",
           "CPU per case"], rows)
    j2 = res["grundy check -j 2, 5,000 tiny cases"]
    per_case = j2.wall / 5000
    verdict("in-process cost ≤ 20 µs per tiny case (5,000 cases)",
            f"{us(per_case)} wall per case with `-j 2` (CPU {us(j2.cpu / 5000)} per case); "
            f"reading the 10,000 files alone: {us(res['C parse-only over the same 10,000 files'].wall / 5000)}",
            per_case <= 20e-6)
    end_section()


def exec_cases():
    section("`check --exec` on 1,000 tiny cases (a small C program)")
    suite = w("exec1000")
    prog = w("nim_c")
    out(f"Program: `bench/c/nim.c` (-O2). grundy's `{containment()}`; "
        "limits: 2000 ms, 256 MiB (RLIMIT_AS and cgroup where writable), 64 MiB output; peak "
        "memory measured for every run.")
    out()
    loop = (f'for f in {suite}/nim/*.in; do {prog} < "$f" > {w("loop.out")}; '
            f'cmp -s {w("loop.out")} "${{f%.in}}.out" || echo "differs: $f"; done')
    cmds = [
        ("grundy check --exec -j 2", dict(argv=grundy("check", "--fixtures", suite, "--exec", prog, "-q", "-j", "2"))),
        ("grundy check --exec -j 1", dict(argv=grundy("check", "--fixtures", suite, "--exec", prog, "-q", "-j", "1"))),
        ("shell loop: program, then cmp", dict(argv=["bash", "-c", loop])),
    ]
    if args.oj:
        oj = [args.oj, "test", "-c", prog, "-d", os.path.join(suite, "nim"), "-j", "2"]
        cmds.append(("oj test -j 2 (memory measured: GNU time)", dict(argv=oj)))
        cmds.append(("oj test -j 2 --gnu-time none (no memory)",
                     dict(argv=oj + ["--gnu-time", w("no-such-time")])))
    res = interleaved(in_work(cmds), max(3, args.runs // 2 + 1))
    rows = [[name, ms(m.wall), us(m.wall / 1000), us(m.cpu / 1000)] for name, m in res.items()]
    table(["command", "wall (median)", "wall per case", "CPU per case"], rows)
    if not args.oj:
        out()
        out(f"online-judge-tools: {args.oj_note}")
    out()
    print_probe()
    g = res["grundy check --exec -j 2"]
    loop_m = res["shell loop: program, then cmp"]
    per = g.wall / 1000
    verdict("`--exec` ≤ 0.5 ms per tiny case, containment and memory measurement on",
            f"{us(per)} per case with `-j 2`; the shell loop with `cmp`: {us(loop_m.wall / 1000)} "
            f"({g.wall / loop_m.wall:.2f}× the loop)",
            per <= 0.5e-3)
    end_section()


def memory():
    section("Peak memory of `check`")
    suites = [("~200 MB", "suite200")]
    if args.big:
        suites.append(("~2 GB", "suite2000"))
    rows = []
    peaks = {}
    for label, folder in suites:
        suite = w(folder)
        total, largest = suite_bytes(suite)
        n = sum(1 for _, _, fs in os.walk(suite) for f in fs if f.endswith(".in"))
        rss, walls = [], []
        for _ in range(3):
            r = run_once([w("peak_rss"), w("rss.txt"), *grundy("check", "--fixtures", suite, "-q")],
                         cwd=args.work)
            if r["rc"] != 0:
                raise SystemExit(f"check on {folder} failed:\n{r['stderr']}")
            with open(w("rss.txt")) as f:
                rss.append(int(f.read()))
            walls.append(r["wall"])
        peaks[label] = max(rss)
        rows.append([label, n, f"{total / 1e6:.0f} MB", f"{largest / 1e3:.0f} kB",
                     f"{max(rss) / 1024:.1f} MiB", f"{statistics.median(walls):.2f} s",
                     f"{total / 1e6 / statistics.median(walls):.0f} MB/s"])
    table(["suite", "cases", "input", "largest case", "peak RSS (max of 3)",
           "wall (median)", "input rate"], rows)
    out()
    out("Peak RSS via `bench/c/peak_rss.c` (fork, exec, wait4's ru_maxrss), `-j 2`.")
    small = peaks["~200 MB"] / 1024
    verdict("peak RSS on the ~200 MB suite ≤ 100 MB", f"{small:.1f} MiB", small <= 100)
    if args.big:
        big = peaks["~2 GB"] / 1024
        verdict("peak RSS on the ~2 GB suite ≤ 2× that on ~200 MB",
                f"{big:.1f} MiB = {big / small:.2f}×", big <= 2 * small)
    end_section()


def solve_vs_cpp():
    section("`grundy solve` on each problem's largest input against a scanf C++ solution (-O2)")
    smallest = w("smallest-set-nim.in")
    with open(smallest, "w") as f:
        f.write("1\n1\n1\n1\n")
    start = interleaved(in_work([
        ("grundy", dict(argv=grundy("solve", "set-nim"), stdin=smallest)),
        ("C++", dict(argv=[w("cpp_set_nim")], stdin=smallest)),
    ]), args.runs * 3)
    g0, c0 = start["grundy"], start["C++"]
    out(f"Process start-up, measured as each program on the smallest set-nim input (median of "
        f"{args.runs * 3}): grundy {ms(g0.wall)} wall, {ms(g0.cpu)} CPU; C++ {ms(c0.wall)} wall, "
        f"{ms(c0.cpu)} CPU. The last column compares the times less these.")
    out()
    rows = []
    for problem in PROBLEMS:
        source = problem.replace("-", "_")
        data = w(f"max/{problem}.in")
        size = os.path.getsize(data)
        cmds = [
            ("grundy", dict(argv=grundy("solve", problem), stdin=data, stdout=w("solve.out"))),
            ("C++", dict(argv=[w(f"cpp_{source}")], stdin=data, stdout=w("cpp.out"))),
        ]
        res = interleaved(in_work(cmds), args.runs)
        with open(w("solve.out"), "rb") as a, open(w("cpp.out"), "rb") as b:
            same = a.read() == b.read()
        g, c = res["grundy"], res["C++"]
        work_g, work_c = g.cpu - g0.cpu, c.cpu - c0.cpu
        less_start = f"{work_g / work_c:.2f}×" if work_c > 0 and work_g > 0 else "–"
        rows.append([problem, f"{size / 1e6:.3f} MB", ms(g.wall), ms(c.wall),
                     f"{g.wall / c.wall:.2f}×", f"{g.cpu / c.cpu:.2f}×" if c.cpu > 0 else "–",
                     "same" if same else "**differs**", less_start])
        verdict(f"`grundy solve {problem}` no slower than C++ scanf",
                f"{g.wall / c.wall:.2f}× wall, {g.cpu / c.cpu:.2f}× CPU; less start-up: "
                f"{less_start} CPU", g.wall <= c.wall and same)
    table(["problem", "input", "grundy solve", "C++ (scanf)", "wall ratio", "CPU ratio",
           "outputs", "CPU ratio less start-up"], rows)
    out()
    out("Largest inputs: `bench/solvers/data.rs` (`max_input`); C++ sources: `bench/cpp/`. "
        "Times include process start and reading stdin; output goes to a file.")
    end_section()


def criterion():
    section("Solver throughput (criterion, `cargo bench -p grundy-bench --bench solvers`)")
    rows = []
    for problem in PROBLEMS:
        size = os.path.getsize(w(f"max/{problem}.in"))
        est = {}
        for bench in ("solve", "parse-only"):
            path = os.path.join(args.criterion, problem, bench, "new", "estimates.json")
            if not os.path.exists(path):
                out(f"(no criterion estimates at {path}; run without --no-criterion)")
                end_section()
                return
            with open(path) as f:
                est[bench] = json.load(f)["median"]["point_estimate"] / 1e9
        rows.append([problem, f"{size / 1e6:.2f} MB", ms(est["solve"]),
                     f"{size / 2**20 / est['solve']:.0f} MiB/s", ms(est["parse-only"]),
                     f"{size / 2**20 / est['parse-only']:.0f} MiB/s",
                     f"{est['solve'] / est['parse-only']:.2f}×"])
    table(["problem", "input", "solve (median)", "solve rate", "parse-only (median)",
           "parse-only rate", "solve / parse-only"], rows)
    out()
    out("Parse-only: every integer of the same bytes through the solvers' own `Scanner`, folded "
        "into a checksum (`bench/solvers/data.rs`, `parse_only`). Wall-clock medians of "
        "criterion's samples, in the same run.")
    end_section()


def ratio_rows(res, base, cases):
    """Rows of command, wall, CPU, per case and both ratios to `base`."""
    return [[name, ms(m.wall), ms(m.cpu), us(m.wall / cases), us(m.cpu / cases),
             f"{m.wall / base.wall:.2f}×", f"{m.cpu / base.cpu:.2f}×"]
            for name, m in res.items()]


# Tiny cases per problem for the built-in checker and interactor (bench/run makes them).
BUILT_IN_CASES = 5000

RATIO_HEADER = ["command", "wall (median)", "CPU (median)", "wall per case", "CPU per case",
                "wall / floor", "CPU / floor"]


def containment():
    """grundy's own description of the containment its programs get here."""
    r = subprocess.run(grundy("check", "--fixtures", w("exec1"), "--exec", w("nim_c"), "-v"),
                       capture_output=True, text=True, cwd=args.work)
    found = [l for l in r.stderr.splitlines() if l.startswith("containment:")]
    return found[0] if found else "containment: (grundy did not say)"


def halves(list_path, name):
    """The lines of a case list split into two lists (every other line); their paths."""
    with open(list_path) as f:
        lines = f.read().splitlines()
    paths = []
    for half in (0, 1):
        paths.append(w(f"{name}-half{half}.list"))
        with open(paths[-1], "w") as f:
            f.write("\n".join(lines[half::2]) + "\n")
    return paths


def case_list(folder, name, answer_ext=None):
    """A list of a fixtures root's cases for bench/c/spawn_floor.c: `INPUT [ANSWER]` a line."""
    inputs = sorted(os.path.join(root, f) for root, _, files in os.walk(folder)
                    for f in files if f.endswith(".in"))
    with open(w(name), "w") as f:
        for path in inputs:
            f.write(f"{path} {path[:-3] + answer_ext}\n" if answer_ext else f"{path}\n")
    return w(name), len(inputs)


def floor_read():
    section("Per-case overhead of the worker pool: `check` on 5,000 tiny cases against reading "
            "their files")
    files = file_list(w("tiny5000"), "tiny.list", (".in", ".out"))
    out("Floor: `bench/c/read_all.c` (-O2), one core: open, read, close each of the suite's "
        "10,000 files (5,000 `.in`, 5,000 `.out`), no stat, no parsing, the list of paths given "
        "on stdin (grundy finds the files itself). Suite: `bench-data tiny DIR 5000 2`, cases "
        "of under 40 bytes over the five problems.")
    out()
    cmds = [
        ("C read-all over the 10,000 files (the floor)", dict(argv=[w("read_all")], stdin=files)),
        ("grundy check --fixtures tiny5000 -q -j 2",
         dict(argv=grundy("check", "--fixtures", w("tiny5000"), "-q", "-j", "2"))),
        ("grundy check --fixtures tiny5000 -q -j 1",
         dict(argv=grundy("check", "--fixtures", w("tiny5000"), "-q", "-j", "1"))),
        ("grundy check --fixtures tiny5000 -q --partition slice:1/5000 (discovery, 1 case judged)",
         dict(argv=grundy("check", "--fixtures", w("tiny5000"), "-q", "--partition",
                          "slice:1/5000"))),
        ("grundy check, 1 tiny case (start-up)",
         dict(argv=grundy("check", "--fixtures", w("tiny1"), "-q"))),
    ]
    res = interleaved(in_work(cmds), args.runs)
    base = res["C read-all over the 10,000 files (the floor)"]
    table(RATIO_HEADER, ratio_rows(res, base, 5000))
    j2 = res["grundy check --fixtures tiny5000 -q -j 2"]
    j1 = res["grundy check --fixtures tiny5000 -q -j 1"]
    disc = res["grundy check --fixtures tiny5000 -q --partition slice:1/5000 (discovery, 1 case "
               "judged)"]
    start = res["grundy check, 1 tiny case (start-up)"]
    out()
    out(f"Per case in `check` itself: start-up {ms(start.wall)}, discovery of the 10,000 files "
        f"{ms(disc.wall - start.wall)} (before any case is judged; problem folders are walked in parallel), judging "
        f"{us((j2.wall - disc.wall) / 5000)} wall per case with `-j 2` and "
        f"{us((j1.wall - disc.wall) / 5000)} with `-j 1`; the floor reads a case's two files in "
        f"{us(base.wall / 5000)}. Scaling `-j 1` → `-j 2`: {j1.wall / j2.wall:.2f}×.")
    verdict("`check -j 2` on 5,000 tiny cases ≤ 1.0× a one-core C loop reading their files",
            f"{j2.wall / base.wall:.2f}× wall ({ms(j2.wall)} vs {ms(base.wall)}), CPU "
            f"{j2.cpu / base.cpu:.2f}×; `-j 1` {j1.wall / base.wall:.2f}× wall",
            j2.wall <= base.wall)
    end_section()


def print_probe():
    if args.probe and os.path.exists(args.probe):
        out("The sandbox's own probe, same session (`cargo run --release -p grundy-sandbox "
            "--example overhead -- 1000 7`: a C program that exits at once, run 1000 times per "
            "round through the sandbox and by a fork/exec/wait loop in C, 7 rounds, median of "
            "the rounds' ratios):")
        out()
        out("```")
        with open(args.probe) as f:
            out(f.read().rstrip())
        out("```")
        out()


def exec_floor():
    section("Containment overhead: `check --exec` on 1,000 tiny cases against starting the "
            "program bare")
    cases, n = case_list(w("exec1000"), "exec.list")
    out(f"Program: `bench/c/nim.c` (-O2) on {n} tiny nim cases. grundy's `{containment()}`; "
        "limits 2000 ms, 256 MiB, 64 MiB output; peak memory measured on every run; output "
        "compared (`tokens`). Floor: `bench/c/spawn_floor.c exec` (-O2), one core: per case "
        "fork, exec the program, its input written into a pipe, its output read from a pipe "
        "to the end, wait; nothing else.")
    out()
    h0, h1 = halves(cases, "exec")
    split = (f"{w('spawn_floor')} exec {w('nim_c')} < {h0} > /dev/null & "
             f"{w('spawn_floor')} exec {w('nim_c')} < {h1} > /dev/null; wait")
    cmds = [
        ("C fork/exec/wait loop (the floor)",
         dict(argv=[w("spawn_floor"), "exec", w("nim_c")], stdin=cases)),
        ("the floor split over 2 processes", dict(argv=["bash", "-c", split])),
        ("grundy check --exec -q -j 2",
         dict(argv=grundy("check", "--fixtures", w("exec1000"), "--exec", w("nim_c"), "-q",
                          "-j", "2"))),
        ("grundy check --exec -q -j 1",
         dict(argv=grundy("check", "--fixtures", w("exec1000"), "--exec", w("nim_c"), "-q",
                          "-j", "1"))),
    ]
    res = interleaved(in_work(cmds), args.runs)
    base = res["C fork/exec/wait loop (the floor)"]
    table(RATIO_HEADER, ratio_rows(res, base, n))
    out()
    print_probe()
    j2, j1 = res["grundy check --exec -q -j 2"], res["grundy check --exec -q -j 1"]
    two = res["the floor split over 2 processes"]
    out(f"The second core, meanwhile: the floor ran {base.wall / two.wall:.2f}× faster split "
        f"over 2 processes; `-j 2` against that split: {j2.wall / two.wall:.2f}× wall.")
    verdict("`check --exec -j 2` (full containment) ≤ 1.3× a one-core fork/exec/wait loop",
            f"{j2.wall / base.wall:.2f}× wall, CPU {j2.cpu / base.cpu:.2f}×; `-j 1` "
            f"{j1.wall / base.wall:.2f}× wall, CPU {j1.cpu / base.cpu:.2f}×",
            j2.wall <= 1.3 * base.wall)
    end_section()


def against_floor(floor, label, grundy_args, n, target):
    """Runs `floor` (a (label, command) pair) and `grundy ARGS -q -j 2` and `-j 1`, interleaved;
    prints their table against the floor and the verdict on `target` (≤ 1.5× with `-j 2`)."""
    runs = {f"{label} -q -j {jobs}": dict(argv=grundy(*grundy_args, "-q", "-j", jobs))
            for jobs in ("2", "1")}
    res = interleaved(in_work([floor, *runs.items()]), args.runs)
    base = res[floor[0]]
    table(RATIO_HEADER, ratio_rows(res, base, n))
    j2, j1 = (res[f"{label} -q -j {jobs}"] for jobs in ("2", "1"))
    verdict(target, f"{j2.wall / base.wall:.2f}× wall with `-j 2` (CPU {j2.cpu / base.cpu:.2f}×); "
            f"`-j 1` {j1.wall / base.wall:.2f}×", j2.wall <= 1.5 * base.wall)


def judges():
    section("Checkers and interactors: programs against the floor, built-in ones in process")
    out(f"grundy's `{containment()}` (checkers and interactors are contained like the program).")
    out()
    out("### A checker program: `check --exec PROG --checker kattis:CHECKER` on 1,000 tiny cases")
    out()
    cases, n = case_list(w("exec1000"), "checker.list", ".out")
    out("Program `bench/c/nim.c`, checker `bench/c/tokens_checker.c` (Kattis protocol: input, "
        "answer and feedback folder as arguments, the output on stdin, exit 42). Floor: "
        "`bench/c/spawn_floor.c checker`, one core: per case fork/exec the program (pipes in "
        "and out), then fork/exec the checker with the same files and the output through a "
        "pipe, wait for both.")
    out()
    checker = "kattis:" + w("tokens_checker")
    against_floor(("C loop: program, then checker (the floor)",
                   dict(argv=[w("spawn_floor"), "checker", w("nim_c"), w("tokens_checker")],
                        stdin=cases)),
                  "grundy check --exec PROG --checker kattis:CHECKER",
                  ["check", "--fixtures", w("exec1000"), "--exec", w("nim_c"), "--checker",
                   checker], n,
                  "`check --exec --checker kattis:…` ≤ 1.5× a C loop running program and checker")

    out()
    out("### An interactor program: `check --exec PROG --interactor kattis:INTERACTOR` on 1,000 "
        "cases")
    out()
    cases, n = case_list(w("guess1000"), "guess.list", ".ans")
    out("A guessing game (`bench/c/guess_interactor.c`, Kattis protocol; "
        "`bench/c/guess_player.c` halves 1..100, so up to 7 exchanges a case; "
        "`bench/fixtures.py guess DIR 1000 9`). grundy relays every line between the two (for "
        "the transcript of a failure). Floor: `bench/c/spawn_floor.c interact`, one core: per "
        "case fork/exec both, joined directly by two pipes, wait for both.")
    out()
    interactor = "kattis:" + w("guess_interactor")
    against_floor(("C loop: program and interactor on two pipes (the floor)",
                   dict(argv=[w("spawn_floor"), "interact", w("guess_player"),
                              w("guess_interactor")], stdin=cases)),
                  "grundy check --exec PROG --interactor kattis:INTERACTOR",
                  ["check", "--fixtures", w("guess1000"), "--exec", w("guess_player"),
                   "--interactor", interactor], n,
                  "`check --exec --interactor kattis:…` ≤ 1.5× a C loop running both on pipes")

    out()
    n = BUILT_IN_CASES
    out(f"### Built-in checker and interactor, in process: {n:,} tiny cases each")
    out()
    out(f"`bench-data tiny DIR {n} 8 PROBLEM`: s-nim (two takes, one position of three heaps "
        "up to 30, compared as `tokens`), s-nim-move (the same size; its built-in checker "
        "judges the move from the rules) and s-nim-duel (two takes, three heaps up to 30; the "
        "built-in player against the built-in judge, a whole game a case). Per case: the "
        f"{n:,}-case run less the 1-case run of the same problem (start-up), over {n - 1:,}.")
    out()
    cmds = []
    for problem, folder in (("s-nim", "snim"), ("s-nim-move", "move"), ("s-nim-duel", "duel")):
        cmds.append((f"{problem}, 1 case", dict(argv=grundy("check", "--fixtures",
                                                            w(f"{folder}1"), "-q"))))
        for jobs in ("2", "1"):
            cmds.append((f"{problem}, many cases, -j {jobs}",
                         dict(argv=grundy("check", "--fixtures", w(f"{folder}{n}"), "-q", "-j",
                                          jobs))))
    res = interleaved(in_work(cmds), args.runs)
    per = {}
    rows = []
    for problem in ("s-nim", "s-nim-move", "s-nim-duel"):
        one = res[f"{problem}, 1 case"]
        for jobs in ("2", "1"):
            m = res[f"{problem}, many cases, -j {jobs}"]
            per[problem, jobs] = ((m.wall - one.wall) / (n - 1), (m.cpu - one.cpu) / (n - 1))
        base = per["s-nim", "2"]
        rows.append([problem, ms(one.wall), ms(res[f"{problem}, many cases, -j 2"].wall),
                     us(per[problem, "2"][0]), f"{per[problem, '2'][0] / base[0]:.2f}×",
                     us(per[problem, "2"][1]), f"{per[problem, '2'][1] / base[1]:.2f}×",
                     us(per[problem, "1"][0]),
                     f"{per[problem, '1'][0] / per['s-nim', '1'][0]:.2f}×"])
    table(["problem", "1 case (start-up)", f"{n:,} cases, -j 2", "per case, -j 2 (wall)",
           "/ s-nim", "per case, -j 2 (CPU)", "/ s-nim", "per case, -j 1 (wall)", "/ s-nim"],
          rows)
    for problem, what in (("s-nim-move", "built-in checker"), ("s-nim-duel", "built-in interactor")):
        ratio = per[problem, "2"][0] / per["s-nim", "2"][0]
        verdict(f"{what} ({problem}) ≤ 2× per case a `tokens` problem (s-nim), in process",
                f"{ratio:.2f}× wall ({us(per[problem, '2'][0])} vs {us(per['s-nim', '2'][0])} "
                f"per case less start-up, `-j 2`), CPU "
                f"{per[problem, '2'][1] / per['s-nim', '2'][1]:.2f}×; `-j 1` "
                f"{per[problem, '1'][0] / per['s-nim', '1'][0]:.2f}× wall", ratio <= 2)
    end_section()


def verify():
    section("Package verification: `grundy verify` against problemtools and BAPCtools")
    pkg, legacy = w("pkg/2025-09/nim"), w("pkg/legacy/nim")
    small, small_legacy = w("trivial/2025-09/nim"), w("trivial/legacy/nim")
    out("Package: nim in the Kattis format, written by `bench/fixtures.py nim-package`: 1,001 "
        "cases (the project's 23 judged nim fixtures, up to 483 kB, and 978 tiny generated "
        "ones), the six planted C++ submissions of `problems/nim/submissions` (one accepted, "
        "five wrong answers), `bench/c/nim_validator.c` as input validator, the default output "
        "validator; time limit 2 s and memory 1024 MiB for every tool. grundy and BAPCtools "
        "read the 2025-09 version (BAPCtools reads no other), problemtools the legacy one "
        "(it reads legacy and 2023-07-draft) with `-t 2`, its way to a fixed time limit. Every "
        "command once unmeasured first, so grundy's and BAPCtools' build caches are warm "
        "(problemtools keeps no build cache: it compiles the seven programs on every run).")
    out()
    out("What each does: `grundy verify` validates all 1,001 inputs and judges every submission "
        "on every case (7,007 contained runs); `verifyproblem -p submissions` and `bt run` judge "
        "the accepted submission on every case and stop each wrong one at its first failing "
        "case and validate nothing, as `grundy verify --first-failure --submissions-only` "
        "does (`--first-failure` alone still validates every input); `bt run -a` judges every "
        "case, as grundy does by default, but validates nothing. Each peer is compared with the "
        "grundy command doing the same judging (the full `grundy verify` does more than `bt run "
        "-a`).")
    out()
    first = "grundy verify -j 2 --first-failure PKG"
    same = "grundy verify -j 2 --first-failure --submissions-only PKG"
    cmds = [("grundy verify -j 2 PKG", dict(argv=grundy("verify", "-j", "2", pkg))),
            (first, dict(argv=grundy("verify", "-j", "2", "--first-failure", pkg))),
            (same, dict(argv=grundy("verify", "-j", "2", "--first-failure",
                                    "--submissions-only", pkg)))]
    # BAPCtools' build cache and its record of problem uuids (a uuid seen at another path is a
    # warning, and a warning fails `bt run`) in the temporary folder, not the user's.
    bt_env = {"TMPDIR": w("bt-tmp"), "XDG_CONFIG_HOME": w("bt-config")}
    os.makedirs(w("bt-tmp"), exist_ok=True)
    if args.pt:
        cmds.append(("verifyproblem -p submissions -j 2 -t 2 PKG (problemtools)",
                     dict(argv=[args.pt, "-p", "submissions", "-j", "2", "-t", "2", legacy])))
    if args.bt:
        cmds.append(("bt run -j 2 (BAPCtools, in PKG)",
                     dict(argv=[args.bt, "run", "-j", "2", "-B"], cwd=pkg, env=bt_env)))
        cmds.append(("bt run -a -j 2 (every case)",
                     dict(argv=[args.bt, "run", "-a", "-j", "2", "-B"], cwd=pkg, env=bt_env)))
    cmds = [(name, dict({"cwd": args.work}, **spec)) for name, spec in cmds]
    res = interleaved(cmds, max(3, args.runs // 2 + 1))
    g = res["grundy verify -j 2 PKG"]
    table(["command", "wall (median)", "CPU (median)", "wall / grundy", "CPU / grundy"],
          [[name, ms(m.wall), ms(m.cpu), f"{m.wall / g.wall:.1f}×", f"{m.cpu / g.cpu:.1f}×"]
           for name, m in res.items()])
    out()
    for name, note in (("problemtools", args.pt_note), ("BAPCtools", args.bt_note)):
        if note:
            out(f"- {name}: {note}")
    out()
    f = res[same]
    for key, peer, ours, how in (
            ("verifyproblem -p submissions -j 2 -t 2 PKG (problemtools)", "problemtools", f,
             "`grundy verify --first-failure --submissions-only`"),
            ("bt run -j 2 (BAPCtools, in PKG)", "BAPCtools (`bt run`)", f,
             "`grundy verify --first-failure --submissions-only`"),
            ("bt run -a -j 2 (every case)", "BAPCtools (`bt run -a`)", g, "`grundy verify`")):
        if key in res:
            speedup = res[key].wall / ours.wall
            verdict(f"{how} ≥ 10× faster than {peer}",
                    f"{speedup:.1f}× ({ms(ours.wall)} vs {ms(res[key].wall)}); CPU "
                    f"{res[key].cpu / ours.cpu:.1f}×", speedup >= 10)
        else:
            verdict(f"{how} ≥ 10× faster than {peer}", "not measured (see above)", None)

    out()
    out("Start-up and fixed costs: `grundy --version`, and each tool on a package of two cases "
        "and one accepted submission (`bench/fixtures.py trivial-package`), builds cached.")
    out()
    cmds = [("grundy --version", dict(argv=grundy("--version"))),
            ("grundy verify -j 2 TRIVIAL", dict(argv=grundy("verify", "-j", "2", small)))]
    if args.pt:
        cmds.append(("verifyproblem --version", dict(argv=[args.pt, "--version"])))
        cmds.append(("verifyproblem -p submissions -j 2 -t 2 TRIVIAL",
                     dict(argv=[args.pt, "-p", "submissions", "-j", "2", "-t", "2",
                                small_legacy])))
    if args.bt:
        cmds.append(("bt --version", dict(argv=[args.bt, "--version"])))
        cmds.append(("bt run -j 2 (in TRIVIAL)",
                      dict(argv=[args.bt, "run", "-j", "2", "-B"], cwd=small, env=bt_env)))
    cmds = [(name, dict({"cwd": args.work}, **spec)) for name, spec in cmds]
    res = interleaved(cmds, args.runs)
    table(["command", "wall (median)", "CPU (median)"],
          [[name, ms(m.wall), ms(m.cpu)] for name, m in res.items()])
    version, trivial = res["grundy --version"], res["grundy verify -j 2 TRIVIAL"]
    verdict("start-up ≤ 20 ms (`grundy --version`)", ms(version.wall), version.wall <= 0.020)
    verdict("`grundy verify` of a trivial package ≤ 20 ms", f"{ms(trivial.wall)} wall, "
            f"{ms(trivial.cpu)} CPU", trivial.wall <= 0.020)
    end_section()


# Every section, in the order of the report, with the issue whose targets it measures.
SECTIONS = {
    "criterion": (criterion, "6"),
    "check": (check_suite, "6"),
    "tiny": (tiny, "6"),
    "floor_read": (floor_read, "14"),
    "exec": (exec_cases, "6"),
    "exec_floor": (exec_floor, "11"),
    "judges": (judges, "12"),
    "memory": (memory, "6"),
    "solve": (solve_vs_cpp, "6"),
    "verify": (verify, "13"),
}


def main():
    global args, issue
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--grundy", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--big", action="store_true")
    p.add_argument("--oj", default="")
    p.add_argument("--oj-note", default="not installed")
    p.add_argument("--probe", default="")
    p.add_argument("--pt", default="", help="problemtools' verifyproblem")
    p.add_argument("--pt-note", default="")
    p.add_argument("--bt", default="", help="BAPCtools' bt")
    p.add_argument("--bt-note", default="")
    p.add_argument("--criterion", default="")
    p.add_argument("--only", default=",".join(SECTIONS))
    p.add_argument("--report", required=True)
    args = p.parse_args()
    out("# grundy benchmark report (bench/run)")
    out()
    machine()
    only = args.only.split(",")
    unknown = [name for name in only if name not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown sections {unknown}; the sections: {', '.join(SECTIONS)}")
    for name, (run, issue) in SECTIONS.items():
        if name in only and (name != "criterion" or args.criterion):
            run()
    out()
    out("## Targets")
    out()
    table(["issue", "target", "measured", "verdict"], [list(v) for v in verdicts])
    with open(args.report, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
