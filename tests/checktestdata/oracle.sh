#!/bin/sh
# Writes expected.txt: each input's verdict by the checktestdata tool from PyPI (`pip install
# checktestdata`, the command `pyctd`), the oracle tests/checktestdata.rs compares grundy with.
# pyctd exits 0 for a valid input, 1 for an invalid one, anything else for a fault.
set -eu
cd "$(dirname "$0")"
for input in *.in; do
    script="${input%%.*}.ctd"
    status=0
    pyctd "$script" "$input" >/dev/null 2>&1 || status=$?
    case $status in
        0) echo "$input accept" ;;
        1) echo "$input reject" ;;
        *) echo "pyctd failed ($status) on $input" >&2; exit 1 ;;
    esac
done > expected.txt
