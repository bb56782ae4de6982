# Reference solution (must be accepted): mex table of the subtraction game, extended until the largest heap or the first repeated window of max S values (the exact period).
import sys

LIMIT = 1 << 20  # the statement: preperiod + period + max S <= 2^20 when a heap is above 2^20
MOD = (1 << 61) - 1
BASE = 1000003


def main():
    data = sys.stdin.buffer.read().split()
    k = int(data[0])
    takes = sorted(set(int(t) for t in data[1:1 + k]))
    n = int(data[1 + k])
    heaps = [int(t) for t in data[2 + k:2 + k + n]]
    largest = max(heaps)
    m = takes[-1]
    top = pow(BASE, m - 1, MOD)
    g = bytearray()
    first = {}  # window hash -> start of the first window with that hash
    clashes = {}  # window hash -> later starts of different windows with that hash (hash collisions)
    drop = top * BASE % MOD
    h = 0
    pre = per = None
    end = largest + 1 if largest <= LIMIT else LIMIT
    for x in range(end):
        mask = 0
        if x >= m:
            for s in takes:
                mask |= 1 << g[x - s]
        else:
            for s in takes:
                if s > x:
                    break
                mask |= 1 << g[x - s]
        v = (~mask & (mask + 1)).bit_length() - 1
        g.append(v)
        # the window g[x-m+1 .. x] just became complete
        if x >= m:
            h = (h * BASE + v + 1 - (g[x - m] + 1) * drop) % MOD
        else:
            h = (h * BASE + v + 1) % MOD
        if x >= m - 1:
            y = x - m + 1
            z = first.get(h)
            if z is None:
                first[h] = y
                continue
            for z in [z] + clashes.get(h, []):
                if g[z:z + m] == g[y:y + m]:
                    pre, per = z, y - z
                    break
            else:
                clashes.setdefault(h, []).append(y)
                continue
            break
    total = 0
    for v in heaps:
        if v < len(g):
            total ^= g[v]
        else:
            total ^= g[pre + (v - pre) % per]
    print("Yes" if total else "No")


main()
