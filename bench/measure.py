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
verdicts = []  # (target, figure, met)


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


def verdict(target, figure, met, why=""):
    verdicts.append((target, figure, "met" if met else "**not met**", why))


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
    contained = subprocess.run(
        grundy("check", "--fixtures", w("exec1"), "--exec", prog, "-v"),
        capture_output=True, text=True, cwd=args.work)
    containment = [l for l in contained.stderr.splitlines() if l.startswith("containment:")]
    out(f"Program: `bench/c/nim.c` (-O2). grundy's `{containment[0] if containment else 'containment: ?'}`; "
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
    if args.probe and os.path.exists(args.probe):
        out("The sandbox's own probe, same session (`cargo run --release -p grundy-sandbox "
            "--example overhead -- 300`): per run of a C program that exits at once:")
        out()
        out("```")
        with open(args.probe) as f:
            out(f.read().rstrip())
        out("```")
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


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--grundy", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--big", action="store_true")
    p.add_argument("--oj", default="")
    p.add_argument("--oj-note", default="not installed")
    p.add_argument("--probe", default="")
    p.add_argument("--criterion", default="")
    p.add_argument("--only", default="criterion,check,tiny,exec,memory,solve")
    p.add_argument("--report", required=True)
    args = p.parse_args()
    out("# grundy benchmark report (bench/run)")
    out()
    machine()
    only = args.only.split(",")
    if "criterion" in only and args.criterion:
        criterion()
    if "check" in only:
        check_suite()
    if "tiny" in only:
        tiny()
    if "exec" in only:
        exec_cases()
    if "memory" in only:
        memory()
    if "solve" in only:
        solve_vs_cpp()
    out()
    out("## Targets")
    out()
    table(["target", "measured", "verdict", ""], [list(v) for v in verdicts])
    with open(args.report, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
