// Wrong answer: finds the right moves but writes the heap's 0-based index: a move on heap 1 names heap 0, which does not exist (an illegal move), and other moves hit the heap before the right one. Caught by sample-1 (`0 2`) and most cases.
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
            int x = xor_of(), heap = -1, take = 0;
            for (int i = 0; i < l && heap < 0; i++) {
                int h = heaps[i], t = g[h] ^ x;
                if (t >= g[h]) continue;
                for (int s : takes)
                    if (s <= h && g[h - s] == t) {
                        heap = i, take = s;
                        break;
                    }
            }
            if (heap < 0) return std::puts("0 0"), 0;
            std::printf("%d %d\n", heap, take);  // bug: heaps are numbered from 1
            std::fflush(stdout);
            heaps[heap] -= take;
        } else {
            int heap, take;
            if (std::scanf("%d %d", &heap, &take) != 2 || heap == 0) return 0;
            heaps[heap - 1] -= take;
        }
    }
}
