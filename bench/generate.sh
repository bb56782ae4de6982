#!/bin/sh
# Times `grundy generate -j 2` (release) against BAPCtools' `bt generate -j 2` on BAPCtools' test
# packages that carry a generators.yaml and on `many`, written here: 240 cases made by a Python
# generator (`count:`), answers from a Python solution. Each tool runs on its own fresh copy of
# a package (program builds included), then again with nothing changed. BENCHMARKS.md has the
# figures. Needs cargo, python3 and bt (`pip install bapctools`); BT names the bt to run and
# PEERS the BAPCtools checkout whose test/problems are used. Arguments name the packages to time
# (default: all of them).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bt=${BT:-bt}
peers=${PEERS:-/tmp/peers/bt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
cargo build --release -q
grundy="$root/target/release/grundy"

# The package written for the benchmark.
many="$work/src/many"
mkdir -p "$many/generators" "$many/submissions/accepted" "$many/input_validators" "$many/data"
printf 'problem_format_version: 2025-09\ntype: pass-fail\nname: Many\nuuid: 8ee7605a-3c1d-4f0e-9b6a-5d2c7e4a1f30\n' > "$many/problem.yaml"
cat > "$many/generators/gen.py" <<'PY'
import random, sys
random.seed(int(sys.argv[1]))
n = int(sys.argv[2])
print(n)
print(" ".join(str(random.randint(-10**9, 10**9)) for _ in range(n)))
PY
printf 'import sys\nw = sys.stdin.read().split()\nprint(sum(map(int, w[1:])))\n' > "$many/submissions/accepted/sum.py"
printf 'import sys\nsys.stdin.read()\nsys.exit(42)\n' > "$many/input_validators/ok.py"
{
    echo "solution: /submissions/accepted/sum.py"
    echo "data:"
    echo "  sample:"
    echo "    data:"
    echo '      - s:'
    echo '          in: "2 1 2"'
    echo "  secret:"
    echo "    data:"
    for size in 10 1000 10000; do
        echo "      - n$size:"
        echo "          generate: gen.py {seed} $size"
        echo "          count: 80"
    done
} > "$many/generators/generators.yaml"

for p in ${*:-testseed generatorcount generatorincludes divsort alternativeencryption multipass identity}; do
    [ "$p" = many ] || cp -r "$peers/test/problems/$p" "$work/src/$p"
done
[ $# -eq 0 ] || echo " $* " | grep -q " many " || rm -rf "$many"

python3 - "$work" "$grundy" "$bt" <<'PY'
import os, shutil, subprocess, sys, time
work, grundy, bt = sys.argv[1:]
def timed(command, cwd):
    start = time.monotonic()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start
print(f"{'package':24} {'bt fresh':>9} {'grundy':>9} {'ratio':>6}   {'bt again':>9} {'grundy':>9} {'ratio':>6}")
for name in sorted(os.listdir(f"{work}/src")):
    times = {}
    for tool, command in [("bt", [bt, "generate", "-j", "2"]), ("grundy", [grundy, "generate", "-j", "2", "."])]:
        copy = f"{work}/{tool}-{name}"
        shutil.copytree(f"{work}/src/{name}", copy, symlinks=True)
        times[tool] = (timed(command, copy), timed(command, copy))
    (bf, ba), (gf, ga) = times["bt"], times["grundy"]
    print(f"{name:24} {bf:8.2f}s {gf:8.2f}s {bf / gf:5.1f}x   {ba:8.2f}s {ga:8.2f}s {ba / ga:5.1f}x", flush=True)
PY
