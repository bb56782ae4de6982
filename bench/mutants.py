#!/usr/bin/env python3
"""Times `grundy mutants -j 2` (BENCHMARKS.md, "grundy mutants"): a package of 100 cases made
here from a fixed seed (answers by an independent Python reference), whose accepted submission
is bench/mutants/stats.cpp (about 100 lines of C++), mutated and judged twice: first with an
empty build cache (every mutant compiled), then again (every build a cache hit, so the run is
the judging alone). The difference is the build time. With `--budget N`, a third run (builds
cached) also searches each survivor with N inputs of the package's generator (`generators/gen.py
{seed}`, a random case of the same shape), and the difference to the second is the search's
time. Each run is nice'd; the load average before and after is printed, since the machine may be
shared. Needs python3, a C++ compiler and cargo (or --grundy).

    bench/mutants.py [--grundy PATH] [--budget N] [--keep]
"""

import argparse
import inspect
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from timing import loadavg, run_once  # noqa: E402

CASES = 100


def inversions(values):
    """Pairs i < j with values[i] > values[j], by merge sort."""
    if len(values) <= 1:
        return 0, values
    mid = len(values) // 2
    left_count, left = inversions(values[:mid])
    right_count, right = inversions(values[mid:])
    merged, count, i, j = [], left_count + right_count, 0, 0
    while i < len(left) and j < len(right):
        if right[j] < left[i]:
            count += len(left) - i
            merged.append(right[j])
            j += 1
        else:
            merged.append(left[i])
            i += 1
    return count, merged + left[i:] + right[j:]


def gcd_all(values):
    g = 0
    for v in values:
        a, b = abs(g), abs(v)
        while b:
            a, b = b, a % b
        g = a
    return g


def answer(values, queries):
    best = here = values[0]
    for v in values[1:]:
        here = max(v, here + v)
        best = max(best, here)
    lines = [sum(values), best, inversions(values)[0], gcd_all(values)]
    out = [str(x) for x in lines]
    for left, right in queries:
        run = values[left - 1:right]
        out.append(f"{sum(run)} {max(run)}")
    return "\n".join(out) + "\n"


def random_case(rng):
    """A random array and its queries (the package's generator runs this too, by its source)."""
    n = rng.choice([rng.randint(1, 30), rng.randint(1, 2000)])
    bound = rng.choice([3, 100, 10**9])
    low = rng.choice([-bound, 0, 1])
    values = [rng.randint(low, bound) for _ in range(n)]
    return values, queries_of(rng, n)


def queries_of(rng, n):
    queries = []
    for _ in range(rng.randint(1, 100)):
        left = rng.randint(1, n)
        queries.append((left, rng.randint(left, n)))
    return queries


def text_of(values, queries):
    text = f"{len(values)}\n{' '.join(map(str, values))}\n{len(queries)}\n"
    return text + "".join(f"{l} {r}\n" for l, r in queries)


def case(rng, index):
    """The index-th case: a few edge shapes first, then random arrays of varied sizes and
    ranges."""
    if index >= 5:
        values, queries = random_case(rng)
        return text_of(values, queries), answer(values, queries)
    n = [1, 2, 7, 2000, 2000][index]
    bound = rng.choice([3, 100, 10**9])
    if index == 1:
        values = [-5, -7]
    elif index == 2:
        values = [4] * n
    elif index == 3:
        values = list(range(n, 0, -1))
    elif index == 4:
        values = [rng.choice([-10**9, 10**9]) for _ in range(n)]
    else:
        low = rng.choice([-bound, 0, 1])
        values = [rng.randint(low, bound) for _ in range(n)]
    queries = queries_of(rng, n)
    return text_of(values, queries), answer(values, queries)


# The package's generator: a random case of the shape `case` makes past its edge cases, from
# the seed it is given (the search's inputs), by the same functions.
GENERATOR = "import random, sys\n\n" + "\n\n".join(
    inspect.getsource(f) for f in (random_case, queries_of, text_of)
) + "\n\nprint(text_of(*random_case(random.Random(int(sys.argv[1])))), end='')\n"


def make_package(folder):
    rng = random.Random(36)
    os.makedirs(f"{folder}/submissions/accepted")
    with open(f"{folder}/problem.yaml", "w") as f:
        f.write("problem_format_version: 2023-07-draft\nname: Stats\nlimits:\n  time_limit: 1\n")
    shutil.copy(f"{HERE}/mutants/stats.cpp", f"{folder}/submissions/accepted/stats.cpp")
    os.makedirs(f"{folder}/generators")
    with open(f"{folder}/generators/gen.py", "w") as f:
        f.write(GENERATOR)
    for index in range(CASES):
        group = "sample" if index == 0 else "secret"
        os.makedirs(f"{folder}/data/{group}", exist_ok=True)
        text, expected = case(rng, index)
        with open(f"{folder}/data/{group}/{index:03}.in", "w") as f:
            f.write(text)
        with open(f"{folder}/data/{group}/{index:03}.ans", "w") as f:
            f.write(expected)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grundy", help="the grundy to time (default: a release build of this checkout)")
    parser.add_argument("--budget", type=int, help="also time the survivors' search, N inputs each")
    parser.add_argument("--keep", action="store_true", help="keep the package folder")
    args = parser.parse_args()
    grundy = args.grundy
    if not grundy:
        subprocess.run(["cargo", "build", "--release", "--bin", "grundy", "-q"], cwd=ROOT, check=True)
        grundy = f"{ROOT}/target/release/grundy"
    work = tempfile.mkdtemp(prefix="grundy-mutants-bench-")
    package = f"{work}/stats"
    make_package(package)
    env = {"NO_COLOR": "1"}
    # Run from the work folder, with no project (Cargo.toml, runner.toml) around it and no
    # CARGO_TARGET_DIR, the build cache is work/.grundy-build: removed for the cold run.
    os.environ.pop("CARGO_TARGET_DIR", None)
    print("| run | mutants | killed | survived | stillborn | score | wall | CPU | mutants/s | load before → after |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    walls = {}
    runs = ["empty build cache", "every build cached"]
    if args.budget:
        runs.append("survivors searched")
    for run in runs:
        if run == "empty build cache":
            shutil.rmtree(f"{work}/.grundy-build", ignore_errors=True)
        before = loadavg()
        out = f"{work}/{len(walls)}.json"
        search = ["--generator", "gen.py {seed}", "--budget", str(args.budget)] if run == "survivors searched" else []
        result = run_once(["nice", "-n", "10", grundy, "mutants", package, "-j", "2", "--format", "json"] + search,
                          cwd=work, stdout=out, env=env)
        after = loadavg()
        if run == "empty build cache" and not os.path.isdir(f"{work}/.grundy-build"):
            sys.exit(f"the build cache is not where it was emptied: {work}/.grundy-build")
        if result["rc"] != 0:
            sys.exit(f"grundy mutants exited {result['rc']}: {result['stderr']}")
        summary = json.loads(open(out).read().splitlines()[-1])
        walls[run] = result["wall"]
        equivalent = f" (+{summary['equivalent']} likely equivalent)" if summary.get("equivalent") else ""
        score = "–" if summary["score"] is None else f"{100 * summary['score']:.1f}%"
        print(f"| {run} | {summary['judged']} | {summary['killed']} | {summary['survived']}{equivalent} | "
              f"{summary['stillborn']} | {score} | {result['wall']:.1f} s | {result['cpu']:.1f} s | "
              f"{summary['judged'] / result['wall']:.2f} | {before} → {after} |")
    build = walls["empty build cache"] - walls["every build cached"]
    print(f"\nbuild ≈ {build:.1f} s (the difference), judge ≈ {walls['every build cached']:.1f} s")
    if args.budget:
        search = walls["survivors searched"] - walls["every build cached"]
        print(f"search ≈ {search:.1f} s ({args.budget} inputs per survivor)")
    if args.keep:
        print(f"kept: {package}")
    else:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
