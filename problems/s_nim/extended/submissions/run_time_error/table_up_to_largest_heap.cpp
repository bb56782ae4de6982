// Run-time error (grundy: MLE): one table per test case up to its largest heap, right for the original limits, but extended heaps reach 10^18 and the allocation fails.
#include <cstdio>
#include <vector>

int main() {
    int k;
    while (std::scanf("%d", &k) == 1 && k != 0) {
        std::vector<int> takes(k);
        for (int &s : takes) std::scanf("%d", &s);
        int positions;
        std::scanf("%d", &positions);
        std::vector<std::vector<long long>> heaps(positions);
        long long largest = 0;
        for (auto &p : heaps) {
            int l;
            std::scanf("%d", &l);
            p.resize(l);
            for (long long &h : p) std::scanf("%lld", &h), largest = h > largest ? h : largest;
        }
        std::vector<int> g(largest + 1);  // bug: no period method, heaps up to 10^18 cannot be tabled
        std::vector<long long> seen(k + 2, -1);
        for (long long x = 1; x <= largest; x++) {
            for (int s : takes)
                if (s <= x) seen[g[x - s]] = x;
            while (seen[g[x]] == x) g[x]++;
        }
        for (auto &p : heaps) {
            int x = 0;
            for (long long h : p) x ^= g[h];
            std::putchar(x ? 'W' : 'L');
        }
        std::putchar('\n');
    }
    return 0;
}
