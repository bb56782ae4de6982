// Time limit exceeded: right answers, but builds a fresh mex table from 0 up to each heap to learn that heap's value, O(sum of heaps * |S|); the max fixtures (10^4 heaps near 10^4, |S| = 100) take ~10^10 steps. Caught by large/max-dense (and large/max-sparse).
#include <cstdio>
#include <vector>

static std::vector<int> takes;

// g(0 .. h) from scratch.
static std::vector<int> table_to(int h) {
    std::vector<int> g(h + 1), seen(takes.size() + 2, -1);
    for (int x = 1; x <= h; x++) {
        for (int s : takes)
            if (s <= x) seen[g[x - s]] = x;
        while (seen[g[x]] == x) g[x]++;
    }
    return g;
}

int main() {
    int k, m;
    if (std::scanf("%d", &k) != 1) return 1;
    takes.resize(k);
    for (int &s : takes) std::scanf("%d", &s);
    std::scanf("%d", &m);
    for (int p = 0; p < m; p++) {
        int l;
        std::scanf("%d", &l);
        std::vector<int> heaps(l), value(l);
        int x = 0;
        for (int i = 0; i < l; i++) {
            std::scanf("%d", &heaps[i]);
            value[i] = table_to(heaps[i])[heaps[i]];  // bug: the same table again for every heap
            x ^= value[i];
        }
        if (x == 0) {
            std::puts("lose");
            continue;
        }
        for (int i = 0; i < l; i++) {
            int h = heaps[i], t = value[i] ^ x;
            if (t >= value[i]) continue;
            std::vector<int> g = table_to(h);
            for (int s : takes)
                if (s <= h && g[h - s] == t) {
                    std::printf("%d %d\n", i + 1, s);
                    break;
                }
            break;
        }
    }
    return 0;
}
