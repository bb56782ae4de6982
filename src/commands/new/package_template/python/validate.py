# The input validator: exit code 42 accepts the input on stdin, 43 rejects it (with a reason on
# stderr). It checks the exact format the statement promises: every space and line break.
import re
import sys

INTEGER = re.compile(r"0|-?[1-9][0-9]*")


def reject(why):
    print(why, file=sys.stderr)
    sys.exit(43)


def integer(word, low, high, what):
    if not INTEGER.fullmatch(word):
        reject(f"{what}: `{word}` is not an integer")
    value = int(word)
    if not low <= value <= high:
        reject(f"{what}: {value} is not between {low} and {high}")
    return value


def main():
    text = sys.stdin.read()
    if not text.endswith("\n"):
        reject("the input must end with a line break")
    lines = text[:-1].split("\n")
    if len(lines) != 2:
        reject(f"expected 2 lines, found {len(lines)}")
    n = integer(lines[0], 1, 100_000, "n")
    words = lines[1].split(" ")
    if len(words) != n:
        reject(f"expected {n} integers on line 2, found {len(words)}")
    for word in words:
        integer(word, -(10**9), 10**9, "a_i")
    sys.exit(42)


main()
