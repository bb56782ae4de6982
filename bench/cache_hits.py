"""What a build-cache hit costs in `grundy verify`, for two or more grundy binaries in one run
(interleaved): the same package of N C++ programs (copies of the planted nim solution, each its
own build) is verified with every build in the cache, next to a package without programs; the
difference over N is the cost of one hit (finding the key, opening the cache, checking the
entry). Each binary has a cache folder of its own, filled before anything is measured.

    python3 bench/cache_hits.py --programs 100 --runs 9 BASELINE_GRUNDY OTHER_GRUNDY...

Ratios are against the first binary.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import interleaved, loadavg, run_once  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBLEM_YAML = "problem_format_version: 2025-09\nname: {name}\nlimits:\n  time_limit: 1\n"


def package(folder, name, programs):
    """A package without cases holding `programs` copies of the nim solution."""
    pkg = os.path.join(folder, name)
    os.makedirs(os.path.join(pkg, "data", "sample"))
    os.makedirs(os.path.join(pkg, "submissions", "accepted"))
    with open(os.path.join(pkg, "problem.yaml"), "w") as f:
        f.write(PROBLEM_YAML.format(name=name))
    with open(os.path.join(ROOT, "problems", "nim", "submissions", "accepted", "nim.cpp")) as f:
        source = f.read()
    for i in range(programs):
        path = os.path.join(pkg, "submissions", "accepted", f"nim{i:04}.cpp")
        with open(path, "w") as f:
            f.write(f"// copy {i}\n{source}")
    return pkg


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--programs", type=int, default=100)
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("binaries", nargs="+")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as work:
        empty = package(work, "empty", 0)
        full = package(work, "full", args.programs)
        cmds = []
        for index, binary in enumerate(args.binaries):
            env = {"CARGO_TARGET_DIR": os.path.join(work, f"cache{index}")}
            for name, pkg in (("empty", empty), ("full", full)):
                spec = dict(argv=[binary, "verify", "-j", "1", pkg], cwd=work, env=env)
                if name == "full":
                    built = run_once(**spec)
                    if built["rc"] != 0:
                        raise SystemExit(f"{binary}: exit {built['rc']}\n{built['stderr']}")
                cmds.append((f"{index}|{name}", spec))
        entry = next(e.path for e in os.scandir(os.path.join(work, "cache0", "grundy-build"))
                     if not e.name.startswith("."))
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(entry) for f in fs)
        print(f"load average (1 min) at start: {loadavg()}")
        print(f"{args.programs} programs; one build folder holds {size / 1024:.1f} KiB")
        print()
        measured = interleaved(cmds, args.runs)
        print("| binary | verify, no programs | verify, all hits | per hit (wall / CPU) | "
              "ratio (wall / CPU) |")
        print("|---|---|---|---|---|")
        base = None
        for index, binary in enumerate(args.binaries):
            e, f = measured[f"{index}|empty"], measured[f"{index}|full"]
            hit = ((f.wall - e.wall) / args.programs, (f.cpu - e.cpu) / args.programs)
            base = base or hit
            print(f"| {os.path.basename(binary)} | {e.wall * 1e3:.1f} ms / {e.cpu * 1e3:.1f} ms "
                  f"| {f.wall * 1e3:.1f} ms / {f.cpu * 1e3:.1f} ms "
                  f"| {hit[0] * 1e6:.0f} µs / {hit[1] * 1e6:.0f} µs "
                  f"| {hit[0] / base[0]:.2f}× / {hit[1] / base[1]:.2f}× |")
        print()
        print(f"load average (1 min) at end: {loadavg()}")


if __name__ == "__main__":
    main()
