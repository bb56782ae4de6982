// Wrong answer: chooses the winning side, but then always plays the first legal move (first heap, first take that fits), so it soon leaves the judge a winning position, and the judge never lets go. Caught by sample-1 and most longer games.
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
    int x = 0;
    for (int h : heaps) x ^= g[h];
    bool mine = x != 0;
    std::puts(mine ? "first" : "second");
    std::fflush(stdout);
    for (;; mine = !mine) {
        if (mine) {
            int heap = 0, take = 0;
            for (int i = 0; i < l && !heap; i++)
                for (int s : takes)
                    if (s <= heaps[i]) {  // bug: legal, but nothing says it keeps the win
                        heap = i + 1, take = s;
                        break;
                    }
            std::printf("%d %d\n", heap, take);
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
