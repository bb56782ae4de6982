"""Two or more grundy binaries on the same suites, interleaved, in one run: for before/after
figures of a change. Needs a data folder kept by `bench/run --keep`:

    python3 bench/compare.py --work /tmp/grundy-bench.XXXXXX --runs 7 OLD_GRUNDY NEW_GRUNDY

With `--exec`, the binaries judge `bench/c/nim.c` on the 1,000 tiny cases instead, with
`check --exec -j 2` (full containment), beside the C fork/exec/wait floor split over two
processes: the sandbox's cost per run, before and after.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import interleaved, loadavg  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--exec", action="store_true", help="compare `check --exec` (see above)")
    p.add_argument("binaries", nargs="+")
    args = p.parse_args()
    w = lambda path: os.path.join(args.work, path)  # noqa: E731
    print(f"load average (1 min) at start: {loadavg()}")
    if args.exec:
        compare_exec(args, w)
        return
    print()
    print("| binary | suite | jobs | wall (median) | CPU (median) | per case (wall / CPU) |")
    print("|---|---|---|---|---|---|")
    for suite, cases in (("suite200", 2000), ("tiny5000", 5000)):
        cmds = [
            (f"{name}|{suite}|{jobs}",
             dict(argv=[binary, "check", "--fixtures", w(suite), "-q", "-j", jobs], cwd=args.work))
            for jobs in ("2", "1")
            for name, binary in ((os.path.basename(b), b) for b in args.binaries)
        ]
        for key, m in interleaved(cmds, args.runs).items():
            name, suite_name, jobs = key.split("|")
            print(f"| {name} | {suite_name} | {jobs} | {m.wall * 1e3:.1f} ms | {m.cpu * 1e3:.1f} ms "
                  f"| {m.wall / cases * 1e6:.1f} µs / {m.cpu / cases * 1e6:.1f} µs |")
    print()
    print(f"load average (1 min) at end: {loadavg()}")


def compare_exec(args, w):
    """`check --exec -j 2` of each binary against the floor split over two processes."""
    with open(w("exec.list")) as listing:
        cases = [line for line in listing if line.strip()]
    halves = [w("exec.half0"), w("exec.half1")]
    for i, path in enumerate(halves):
        with open(path, "w") as half:
            half.writelines(cases[i::2])
    floor = " & ".join(f"{w('spawn_floor')} exec {w('nim_c')} < {h} > /dev/null" for h in halves)
    cmds = [("floor split over 2 processes", dict(argv=["bash", "-c", floor + "; wait"]))]
    cmds += [
        (os.path.basename(b), dict(argv=[b, "check", "--fixtures", w("exec1000"), "--exec",
                                         w("nim_c"), "-q", "-j", "2"], cwd=args.work))
        for b in args.binaries
    ]
    res = interleaved(cmds, args.runs)
    base = res["floor split over 2 processes"]
    print()
    print("| command | wall (median) | CPU (median) | wall / floor |")
    print("|---|---|---|---|")
    for key, m in res.items():
        print(f"| {key} | {m.wall * 1e3:.1f} ms | {m.cpu * 1e3:.1f} ms | "
              f"{m.wall / base.wall:.2f}× |")
    print()
    print(f"load average (1 min) at end: {loadavg()}")


if __name__ == "__main__":
    main()
