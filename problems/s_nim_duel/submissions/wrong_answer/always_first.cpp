// Wrong answer: always plays `first`, as if the program had to open, and gives up with `0 0` as soon as it stands on a position of XOR 0: every game whose start is lost for the first player is a resignation. Caught by edge/smallest and every case whose answer is `second`.
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
    std::puts("first");  // bug: the program may choose `second`, and must when the start is lost
    std::fflush(stdout);
    for (bool mine = true;; mine = !mine) {
        if (mine) {
            int x = 0, heap = 0, take = 0;
            for (int h : heaps) x ^= g[h];
            for (int i = 0; i < l && !heap; i++) {
                int h = heaps[i], t = g[h] ^ x;
                if (t >= g[h]) continue;
                for (int s : takes)
                    if (s <= h && g[h - s] == t) {
                        heap = i + 1, take = s;
                        break;
                    }
            }
            std::printf("%d %d\n", heap, take);  // `0 0` when no move wins: it resigns
            std::fflush(stdout);
            if (!heap) return 0;
            heaps[heap - 1] -= take;
        } else {
            int heap, take;
            if (std::scanf("%d %d", &heap, &take) != 2 || heap == 0) return 0;
            heaps[heap - 1] -= take;
        }
    }
}
