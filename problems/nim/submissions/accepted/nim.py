# Reference solution (must be accepted): Bouton's theorem, the XOR of each non-blank line's heaps.
import sys


def main():
    out = []
    for line in sys.stdin.buffer.read().split(b"\n"):
        heaps = line.split()
        if not heaps:
            continue
        x = 0
        for h in heaps:
            x ^= int(h)
        out.append("win" if x else "lose")
    sys.stdout.write("".join(s + "\n" for s in out))


main()
