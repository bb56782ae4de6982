# Reference solution (must be accepted): XOR of g(a_i) by the closed forms for even and odd k, O(1) big-integer steps per pile.
import sys


def grundy_odd(x):
    # Halve while x is even and at least 6; each halving maps the value v to 2 if v == 1 else 1.
    if x < 6:
        return (0, 1, 0, 1, 2, 0)[x]
    t = (x & -x).bit_length() - 1  # trailing zero bits
    odd = x >> t
    if odd >= 3:
        base, steps = (1 if odd == 3 else 0), t  # chain ends at an odd part: g(3) = 1, odd >= 5 is 0
    else:
        base, steps = 2, t - 2  # x = 2^t >= 8: the chain ends at 4, g(4) = 2
    if steps == 0:
        return base
    first = 2 if base == 1 else 1  # after one step; later steps alternate 1, 2
    if steps % 2 == 1:
        return first
    return 2 if first == 1 else 1


def main():
    data = sys.stdin.buffer.read().split()
    n, k = int(data[0]), int(data[1])
    piles = data[2:2 + n]
    x = 0
    if k % 2 == 0:
        for a in map(int, piles):
            x ^= a if a <= 2 else (1 if a % 2 == 0 else 0)
    else:
        for a in map(int, piles):
            x ^= grundy_odd(a)
    print("Kevin" if x else "Nicky")


main()
