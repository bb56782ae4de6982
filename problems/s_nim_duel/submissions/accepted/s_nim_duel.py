# Reference player (must be accepted): plays `first` when the starting XOR of Grundy values is not 0, else `second`, and answers every judge move with a move back to XOR 0; flushes after every line.
import sys


def main():
    line = sys.stdin.readline().split()
    takes = [int(t) for t in line[1:]]
    heaps = [int(t) for t in sys.stdin.readline().split()[1:]]
    largest = max(heaps)
    g = [0] * (largest + 1)
    for x in range(1, largest + 1):
        options = {g[x - s] for s in takes if s <= x}
        v = 0
        while v in options:
            v += 1
        g[x] = v

    def xor_of():
        x = 0
        for h in heaps:
            x ^= g[h]
        return x

    def send(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    mine = xor_of() != 0
    send("first" if mine else "second")
    while True:
        if mine:
            x = xor_of()
            move = next(
                ((i, s) for i, h in enumerate(heaps) if g[h] ^ x < g[h]
                 for s in takes if s <= h and g[h - s] == g[h] ^ x),
                None,
            )
            if move is None:  # only against a wrong judge
                send("0 0")
                return
            i, s = move
            heaps[i] -= s
            send("%d %d" % (i + 1, s))
        else:
            heap, take = (int(t) for t in sys.stdin.readline().split())
            if heap == 0:  # `0 0`: the judge has no move, it lost
                return
            heaps[heap - 1] -= take
        mine = not mine


main()
