#!/bin/sh
# The built-in problems' own data scored by `grundy mutants`: for each problem with a planted
# accepted submission, its first accepted one by name mutated and judged on its fixtures
# (`grundy mutants PROBLEM -j 2 --format json`, nice'd), one Markdown row each: mutants made,
# killed, survived, stillborn, not judged, the score and the wall time; then the load average.
# The book's table (docs/src/setter/mutants.md) is its output. The mutants' builds are cached
# in this checkout's target/grundy-build/: a second run builds nothing (the table's two times). GRUNDY names the binary to run
# (default: this checkout's release build, built first); run from anywhere.
#
#   bench/mutants_builtin.sh [PROBLEM]...
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
if [ -z "${GRUNDY:-}" ]; then
    cargo build --release --bin grundy -q
    GRUNDY="$root/target/release/grundy"
fi
problems=${*:-lieges-of-legendre nim powers-of-two s-nim s-nim-duel s-nim-move set-nim}
echo "| problem | submission | made | killed | survived | stillborn | not judged | score | time |"
echo "|---|---|---|---|---|---|---|---|---|"
for problem in $problems; do
    start=$(date +%s.%N)
    nice -n 10 "$GRUNDY" mutants "$problem" -j 2 --format json > "$work/$problem.json" || true
    end=$(date +%s.%N)
    python3 - "$problem" "$work/$problem.json" "$start" "$end" <<'PY'
import json, sys
problem, path, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
summary = json.loads(open(path).read().splitlines()[-1])
score = "–" if summary["score"] is None else f"{100 * summary['score']:.1f}%"
print(f"| `{problem}` | `{summary['submission']}` | {summary['made']} | {summary['killed']} | "
      f"{summary['survived']} | {summary['stillborn']} | {summary['unjudged']} | {score} | "
      f"{end - start:.0f} s |")
PY
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
