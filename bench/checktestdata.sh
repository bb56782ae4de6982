#!/bin/sh
# Times grundy's checktestdata interpreter; BENCHMARKS.md has the figures. First the interpreter
# alone, `grundy checktestdata` (release), against a hand-written C validator
# (bench/c/ctd_ints.c, -O2) and, when `pyctd` is on PATH (`pip install checktestdata`), the
# checktestdata tool from PyPI, on one input of 10^6 integers. Then `grundy validate` of a package
# whose input validator is that script, on that input alone and on 500 tiny inputs (one worker per core), for
# this checkout's grundy and each other grundy binary given (one built before a change: before
# and after figures in one run). Medians of 5 interleaved runs (pyctd: 3); wall and CPU time, the
# contained runs' included. Needs cargo, cc and python3.
#
#   bench/checktestdata.sh [OTHER_GRUNDY]...
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
cargo build --release --bin grundy -q
cc -O2 -o "$work/ctd_ints" bench/c/ctd_ints.c
python3 - "$root" "$work" "$@" <<'PY'
import os, random, shutil, sys
root, work, others = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, os.path.join(root, "bench"))
from timing import interleaved, loadavg

script = "INT(1, 1000000, n) NEWLINE\nREP(n, SPACE) INT(-1000000000, 1000000000) END NEWLINE\n"
random.seed(6)
n = 10**6
big = f"{n}\n" + " ".join(str(random.randint(-10**9, 10**9)) for _ in range(n)) + "\n"
ctd, data = f"{work}/ints.ctd", f"{work}/ints.in"
open(ctd, "w").write(script)
open(data, "w").write(big)
grundy = os.path.join(root, "target/release/grundy")
print(f"load average (1 min) at start: {loadavg()}")
print(f"input: {len(big) / 1e6:.1f} MB, 10^6 integers\n")

alone = [
    ("grundy checktestdata (release)", dict(argv=[grundy, "checktestdata", ctd, data])),
    ("C validator", dict(argv=[f"{work}/ctd_ints", data])),
]
measured = interleaved(alone, 5, ok_codes=(0, 42))
if shutil.which("pyctd"):
    measured.update(interleaved([("pyctd (PyPI)", dict(argv=["pyctd", ctd, data]))], 3))
else:
    print("pyctd is not on PATH: the PyPI tool is not measured\n")
base = measured["grundy checktestdata (release)"].wall
print("| command | wall | CPU | / grundy |")
print("|---|---|---|---|")
for name, m in measured.items():
    print(f"| {name} | {m.wall * 1e3:.1f} ms | {m.cpu * 1e3:.1f} ms | {m.wall / base:.2f}× |")

# Packages below one fixtures root: `big` holds the input above, `tiny` 500 inputs of a line.
fixtures = f"{work}/fixtures"
for name, inputs in (("big", {"1": big}), ("tiny", {f"{i:03}": "3\n1 2 3\n" for i in range(500)})):
    os.makedirs(f"{fixtures}/{name}/input_validators")
    os.makedirs(f"{fixtures}/{name}/data/secret")
    open(f"{fixtures}/{name}/problem.yaml", "w").write(
        "problem_format_version: 2023-07-draft\nname: Ints\n")
    open(f"{fixtures}/{name}/input_validators/ints.ctd", "w").write(script)
    for case, text in inputs.items():
        open(f"{fixtures}/{name}/data/secret/{case}.in", "w").write(text)
        open(f"{fixtures}/{name}/data/secret/{case}.ans", "w").write("0\n")
binaries = [("this checkout", grundy)] + [(path, path) for path in others]
commands = [
    (f"{label}|{package}",
     dict(argv=[binary, "validate", "--fixtures", fixtures, package], cwd=work))
    for package in ("big", "tiny")
    for label, binary in binaries
]
print("\n| grundy | package | wall | CPU | per input (wall) |")
print("|---|---|---|---|---|")
for key, m in interleaved(commands, 5).items():
    label, package = key.split("|")
    count = 1 if package == "big" else 500
    print(f"| {label} | {package} | {m.wall * 1e3:.1f} ms | {m.cpu * 1e3:.1f} ms "
          f"| {m.wall / count * 1e3:.2f} ms |")
print(f"\nload average (1 min) at end: {loadavg()}")
PY
