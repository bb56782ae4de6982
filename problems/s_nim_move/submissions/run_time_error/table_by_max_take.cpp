// Run-time error: sizes and fills the Grundy table up to max S instead of up to the largest heap; the checked lookup g.at(h) throws for a heap above max S. Caught by sample-1 and every case with a heap above max S.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int k, m;
    if (std::scanf("%d", &k) != 1) return 1;
    std::vector<int> takes(k);
    for (int &s : takes) std::scanf("%d", &s);
    int top = *std::max_element(takes.begin(), takes.end());
    std::vector<int> g(top + 1), seen(k + 2, -1);  // bug: heaps go beyond max S
    for (int x = 1; x <= top; x++) {
        for (int s : takes)
            if (s <= x) seen[g[x - s]] = x;
        while (seen[g[x]] == x) g[x]++;
    }
    std::scanf("%d", &m);
    for (int p = 0; p < m; p++) {
        int l;
        std::scanf("%d", &l);
        std::vector<int> heaps(l);
        int x = 0;
        for (int &h : heaps) std::scanf("%d", &h), x ^= g.at(h);  // out_of_range above max S
        if (x == 0) {
            std::puts("lose");
            continue;
        }
        bool done = false;
        for (int i = 0; i < l && !done; i++) {
            int h = heaps[i], t = g[h] ^ x;
            if (t >= g[h]) continue;
            for (int s : takes)
                if (s <= h && g[h - s] == t) {
                    std::printf("%d %d\n", i + 1, s);
                    done = true;
                    break;
                }
        }
    }
    return 0;
}
