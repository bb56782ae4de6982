"""How long headless Chromium takes to open HTML pages grundy wrote (a real contest's
`verify --html` page and its shards' `report merge --html` page, say): each page's size and the
median time to load it and print its DOM (`--dump-dom`), less the same for an empty page.

    python3 bench/page_load.py --chromium /usr/bin/chromium --runs 5 PAGE...
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from merge_shards import load_times  # noqa: E402
from timing import loadavg  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("pages", nargs="+", metavar="PAGE")
    args = parser.parse_args()
    print(f"load {loadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        load_times(args.chromium, {p: None for p in args.pages}, folder, args.runs)


if __name__ == "__main__":
    main()
