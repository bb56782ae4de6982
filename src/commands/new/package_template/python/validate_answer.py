# The answer validator: exit code 42 accepts the answer on stdin (the input's path is the first
# argument), 43 rejects it. The answer is one integer on a line: the sum of the input's.
import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"(0|-?[1-9][0-9]{0,14})\n", text):
    print(f"the answer must be one integer on a line, found {text[:40]!r}", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
