// Reference player (must be accepted): plays `first` when the starting XOR of Grundy values is not 0, else `second`, and answers every judge move with a move back to XOR 0; flushes after every line.
#include <cstdio>
#include <vector>

int main() {
    int k, l;
    if (std::scanf("%d", &k) != 1) return 1;
    std::vector<int> takes(k);
    for (int &s : takes) std::scanf("%d", &s);
    std::scanf("%d", &l);
    std::vector<int> heaps(l);
    int largest = 0;
    for (int &h : heaps) std::scanf("%d", &h), largest = h > largest ? h : largest;
    std::vector<int> g(largest + 1), seen(k + 2, -1);
    for (int x = 1; x <= largest; x++) {
        for (int s : takes)
            if (s <= x) seen[g[x - s]] = x;
        while (seen[g[x]] == x) g[x]++;
    }
    auto xor_of = [&] {
        int x = 0;
        for (int h : heaps) x ^= g[h];
        return x;
    };
    bool mine = xor_of() != 0;
    std::puts(mine ? "first" : "second");
    std::fflush(stdout);
    for (;; mine = !mine) {
        if (mine) {
            int x = xor_of(), heap = 0, take = 0;
            for (int i = 0; i < l && !heap; i++) {
                int h = heaps[i], t = g[h] ^ x;
                if (t >= g[h]) continue;
                for (int s : takes)
                    if (s <= h && g[h - s] == t) {
                        heap = i + 1, take = s;
                        break;
                    }
            }
            std::printf("%d %d\n", heap, take);  // `0 0` (resign) only against a wrong judge
            std::fflush(stdout);
            if (!heap) return 0;
            heaps[heap - 1] -= take;
        } else {
            int heap, take;
            if (std::scanf("%d %d", &heap, &take) != 2 || heap == 0) return 0;  // `0 0`: the judge lost
            heaps[heap - 1] -= take;
        }
    }
}
