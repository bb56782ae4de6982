"""Two or more grundy binaries on the same suites, interleaved, in one run: for before/after
figures of a change. Needs a data folder kept by `bench/run --keep`:

    python3 bench/compare.py --work /tmp/grundy-bench.XXXXXX --runs 7 OLD_GRUNDY NEW_GRUNDY
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
    p.add_argument("binaries", nargs="+")
    args = p.parse_args()
    w = lambda path: os.path.join(args.work, path)  # noqa: E731
    print(f"load average (1 min) at start: {loadavg()}")
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


if __name__ == "__main__":
    main()
