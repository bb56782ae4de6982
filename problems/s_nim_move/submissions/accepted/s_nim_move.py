# Reference solution (must be accepted): one mex table up to the largest heap; from XOR x != 0, the first heap with g XOR x < g and the first take reaching value g XOR x.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    k = int(data[0])
    takes = [int(t) for t in data[1:1 + k]]
    m = int(data[1 + k])
    at = 2 + k
    positions = []
    for _ in range(m):
        l = int(data[at])
        positions.append([int(t) for t in data[at + 1:at + 1 + l]])
        at += 1 + l
    largest = max(max(heaps) for heaps in positions)
    ordered = sorted(takes)
    g = [0] * (largest + 1)
    for x in range(1, largest + 1):
        mask = 0
        for s in ordered:
            if s > x:
                break
            mask |= 1 << g[x - s]
        g[x] = (~mask & (mask + 1)).bit_length() - 1
    out = []
    for heaps in positions:
        x = 0
        for h in heaps:
            x ^= g[h]
        if x == 0:
            out.append("lose")
            continue
        for i, h in enumerate(heaps):
            t = g[h] ^ x
            if t < g[h]:
                s = next(s for s in takes if s <= h and g[h - s] == t)
                out.append("%d %d" % (i + 1, s))
                break
    sys.stdout.write("".join(line + "\n" for line in out))


main()
