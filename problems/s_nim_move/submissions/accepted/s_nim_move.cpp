// Reference solution (must be accepted): one mex table up to the largest heap; from XOR x != 0, the first heap with g XOR x < g and the first take reaching value g XOR x.
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
        bool done = false;
        for (size_t i = 0; i < heaps.size() && !done; i++) {
            int h = heaps[i], t = g[h] ^ x;
            if (t >= g[h]) continue;
            for (int s : takes)
                if (s <= h && g[h - s] == t) {
                    std::printf("%zu %d\n", i + 1, s);
                    done = true;
                    break;
                }
        }
    }
    return 0;
}
