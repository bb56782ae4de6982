// Wrong answer: looks the move up in a std::map of Grundy values without checking s <= h; for a take larger than the heap, g[h - s] is a fresh 0, so when the target value is 0 it may print a take the heap cannot give. Caught by edge/unsorted-seed-set (takes 4 from a heap of 1) and the random cases with unsorted S.
#include <cstdio>
#include <map>
#include <vector>

int main() {
    int k, m;
    if (std::scanf("%d", &k) != 1) return 1;
    std::vector<int> takes(k);
    for (int &s : takes) std::scanf("%d", &s);
    std::scanf("%d", &m);
    std::vector<std::vector<int>> positions(m);
    int largest = 0;
    for (auto &heaps : positions) {
        int l;
        std::scanf("%d", &l);
        heaps.resize(l);
        for (int &h : heaps) std::scanf("%d", &h), largest = h > largest ? h : largest;
    }
    std::map<int, int> g;
    std::vector<int> seen(k + 2, -1);
    for (int x = 0; x <= largest; x++) {
        for (int s : takes)
            if (s <= x) seen[g[x - s]] = x;
        int v = 0;
        while (seen[v] == x) v++;
        g[x] = v;
    }
    for (const auto &heaps : positions) {
        int x = 0;
        for (int h : heaps) x ^= g[h];
        if (x == 0) {
            std::puts("lose");
            continue;
        }
        bool done = false;
        for (size_t i = 0; i < heaps.size() && !done; i++) {
            int h = heaps[i], t = g[h] ^ x;
            if (t >= g[h]) continue;
            for (int s : takes)
                if (g[h - s] == t) {  // bug: no s <= h; a negative key reads as value 0
                    std::printf("%zu %d\n", i + 1, s);
                    done = true;
                    break;
                }
        }
    }
    return 0;
}
