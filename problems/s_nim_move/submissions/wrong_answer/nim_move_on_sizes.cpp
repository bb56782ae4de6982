// Wrong answer: picks the right heap by Grundy values but then moves as in plain Nim, taking h - (g XOR x) items to leave a heap of *size* g XOR x, a take usually not in S or not winning. Caught by sample-1 (takes 12, not in S) and most cases.
#include <cstdio>
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
    std::vector<int> g(largest + 1), seen(k + 2, -1);
    for (int x = 1; x <= largest; x++) {
        for (int s : takes)
            if (s <= x) seen[g[x - s]] = x;
        while (seen[g[x]] == x) g[x]++;
    }
    for (const auto &heaps : positions) {
        int x = 0;
        for (int h : heaps) x ^= g[h];
        if (x == 0) {
            std::puts("lose");
            continue;
        }
        for (size_t i = 0; i < heaps.size(); i++) {
            int h = heaps[i], t = g[h] ^ x;
            if (t < g[h]) {
                std::printf("%zu %d\n", i + 1, h - t);  // bug: t is a Grundy value, not a heap size
                break;
            }
        }
    }
    return 0;
}
