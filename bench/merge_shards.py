"""What `grundy report merge` costs: four shards of a partitioned `verify` of a contest holding
CASES case results in all (every submission's `caught_by` entries and its `runs`, the bulk of a
report), as `verify --partition slice:I/4 --format json` writes them, merged in each format.

    python3 bench/merge_shards.py --cases 100000 --runs 5 GRUNDY [--chromium /usr/bin/chromium]
        [--compare OLD.html...]

The shards are written once into a temporary folder; each format's merge is timed `--runs`
times (wall and CPU of the process), the median reported. With `--chromium`, the merged HTML
page's size is reported and the time headless Chromium takes to load and render it
(`--dump-dom`), less the time it takes on an empty page, the median of `--runs`; with
`--compare`, so are the pages given (the same contest's page by an earlier build, say), each run
beside the others so that all meet the same load.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import loadavg, run_once  # noqa: E402

PACKAGES = 20
SUBMISSIONS = 50  # per package
SHARDS = 4
TOOL = "pypy3: Python 3.9.16"


def heading(package, submissions):
    return {
        "type": "heading", "package": package, "origin": f"contest/{package}",
        "warnings": [{"file": f"contest/{package}/statement", "line": 0, "column": 0,
                      "message": "no problem statement"}],
        "build": "50 program(s): 50 from the cache", "validation": "ok",
        "time_limit": "1s (problem.yaml)", "time_limit_ms": 1000.0,
        "time_limit_how": {"fixed": "problem.yaml"},
        "submissions": [{"submission": s, "language": "Python 3"} for s in submissions],
        "label": None, "groups": [{"group": "secret", "cases": 100}],
        "validators": {"input": 1, "answer": 0, "output": "default"},
    }


def submission(package, name, cases):
    message = "line 1, column 1, token 1: expected `1`, found `2`"
    caught = [{"case": f"secret/{i:03}", "verdict": "WA", "message": message}
              for i in range(cases)]
    runs = [{"case": f"secret/{i:03}", "verdict": "WA", "time_ms": 12.0, "message": message,
             "detail": None} for i in range(cases)]
    return {
        "type": "submission", "id": {"problem": package, "subject": name, "case": None},
        "package": package, "submission": name, "language": "Python 3", "tool": TOOL,
        "verdict": "WA", "expected": ["WA"], "expected_rules": "permitted AC, WA; required WA",
        "expected_short": "WA", "ok": True, "time_ms": 41.5, "slowest_case": "secret/000",
        "skipped": None, "problem": None, "compile_error": None, "judge_error": None,
        "caught_by": caught, "runs": runs,
    }


def package_line(package):
    return {
        "type": "package", "id": {"problem": package, "subject": None, "case": None},
        "package": package, "origin": f"contest/{package}", "valid": True, "status": "valid",
        "errors": [], "unchecked": [], "judge_errors": [], "warnings": [],
        "package_warnings": [{"file": f"contest/{package}/statement", "line": 0, "column": 0,
                              "message": "no problem statement"}],
        "judging_warnings": [], "time_limit": "1s (problem.yaml)", "time_limit_ms": 1000.0,
        "time_limit_how": {"fixed": "problem.yaml"},
    }


def shards(folder, cases):
    per = cases // (PACKAGES * SUBMISSIONS)
    files = []
    for index in range(1, SHARDS + 1):
        path = os.path.join(folder, f"shard-{index}.json")
        position = 0
        with open(path, "w") as out:
            for p in range(PACKAGES):
                package = f"p{p:02}"
                names = []
                for s in range(SUBMISSIONS):
                    if position % SHARDS == index - 1:
                        names.append(f"wrong_answer/s{s:03}.py")
                    position += 1
                out.write(json.dumps(heading(package, names)) + "\n")
                for name in names:
                    out.write(json.dumps(submission(package, name, per)) + "\n")
                out.write(json.dumps(package_line(package)) + "\n")
            summary = {
                "type": "summary", "command": "verify", "schema": 1, "cancelled": False,
                "partition": f"slice:{index}/{SHARDS}", "suite_total": PACKAGES * SUBMISSIONS,
                "unreadable": [], "unreadable_packages": [], "time_ms": 1000.0,
                "left_out": {"invalid": 0, "beyond_original_limits": 0},
            }
            out.write(json.dumps(summary) + "\n")
        files.append(path)
    return files


def rendered(chromium, page, profile):
    """Seconds headless Chromium takes to load `page` and print its DOM."""
    start = time.monotonic()
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                    "--dump-dom", f"file://{page}"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def page_timing(grundy, files, folder, chromium, runs, compare):
    page = os.path.join(folder, "merged.html")
    subprocess.run([grundy, "report", "merge", *files, "--html", page],
                   check=False, stdout=subprocess.DEVNULL)
    load_times(chromium, {page: "html page", **{p: None for p in compare}}, folder, runs)


def load_times(chromium, pages, folder, runs):
    """Prints each page's size and the median time headless Chromium takes to load and dump it,
    less an empty page's; `pages` maps each page to its label (None: its file name). Each run
    loads every page once, so that all meet the same load."""
    empty = os.path.join(folder, "empty.html")
    with open(empty, "w") as out:
        out.write("<!DOCTYPE html><title>empty</title>")
    profile = os.path.join(folder, "profile")
    labels = {os.path.abspath(p): label or os.path.basename(p) for p, label in pages.items()}
    times = {p: [] for p in [empty, *labels]}
    for _ in range(runs):
        for p in times:
            times[p].append(rendered(chromium, p, profile))
    empty_s = sorted(times[empty])[runs // 2]
    print(f"{'empty page':>14}: Chromium {empty_s:.2f} s to load and dump it (median of {runs})")
    for p, label in labels.items():
        page_s = sorted(times[p])[runs // 2]
        print(f"{label:>14}: {os.path.getsize(p) / 1e6:.2f} MB; Chromium {page_s:.2f} s to load "
              f"and dump it: {page_s - empty_s:.2f} s more than an empty page (median of {runs})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium")
    parser.add_argument("--compare", nargs="*", default=[], metavar="PAGE")
    parser.add_argument("grundy")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = shards(folder, args.cases)
        size = sum(os.path.getsize(f) for f in files)
        print(f"{SHARDS} shards, {args.cases} case results, {size / 1e6:.1f} MB; load {loadavg()}")
        junit = os.path.join(folder, "merged.xml")
        for label, extra in [("human", []), ("json", ["--format", "json"]),
                             ("json + junit", ["--format", "json", "--junit", junit])]:
            command = [args.grundy, "report", "merge", *files, *extra]
            results = [run_once(command) for _ in range(args.runs)]
            for result in results:
                if result["rc"] != 0:
                    raise SystemExit(f"{label}: exit {result['rc']}\n{result['stderr'][-2000:]}")
            wall = sorted(r["wall"] for r in results)[len(results) // 2]
            cpu = sorted(r["cpu"] for r in results)[len(results) // 2]
            print(f"{label:>14}: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU (median of {args.runs})")
        if args.chromium:
            page_timing(args.grundy, files, folder, args.chromium, args.runs, args.compare)


if __name__ == "__main__":
    main()
