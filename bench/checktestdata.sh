#!/bin/sh
# Times the built-in checktestdata interpreter (examples/checktestdata.rs, release) against the
# checktestdata tool from PyPI (pyctd) and a hand-written C validator (bench/c/ctd_ints.c, -O2)
# on one input of 10^6 integers; BENCHMARKS.md has the figures. Medians of 5 runs (pyctd: 3),
# interleaved. Needs cargo, cc, python3 and `pip install checktestdata`.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
cargo build --release --example checktestdata -q
cc -O2 -o "$work/ctd_ints" bench/c/ctd_ints.c
printf 'INT(1, 1000000, n) NEWLINE\nREP(n, SPACE) INT(-1000000000, 1000000000) END NEWLINE\n' \
    > "$work/ints.ctd"
python3 - "$work/ints.in" <<'PY'
import random, sys
random.seed(6)
n = 10**6
values = " ".join(str(random.randint(-10**9, 10**9)) for _ in range(n))
open(sys.argv[1], "w").write(f"{n}\n{values}\n")
PY
python3 - "$work" <<'PY'
import os, statistics, subprocess, sys, time
work = sys.argv[1]
script, data = f"{work}/ints.ctd", f"{work}/ints.in"
commands = {
    "grundy (built-in)": ["target/release/examples/checktestdata", script, data],
    "C validator": [f"{work}/ctd_ints", data],
    "pyctd (PyPI)": ["pyctd", script, data],
}
times = {name: [] for name in commands}
for round in range(5):
    for name, command in commands.items():
        if name.startswith("pyctd") and round >= 3:
            continue
        start = time.perf_counter()
        subprocess.run(command, check=True)
        times[name].append(time.perf_counter() - start)
print(f"input: {os.path.getsize(data) / 1e6:.1f} MB, 10^6 integers")
median = {name: statistics.median(t) for name, t in times.items()}
for name, seconds in median.items():
    print(f"{name:20} {seconds * 1000:9.1f} ms   {seconds / median['grundy (built-in)']:6.2f}x grundy")
PY
