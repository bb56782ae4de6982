// Run-time error (grundy: MLE): a table of g up to the largest heap, right for the original limits, but extended heaps reach 10^18 and the allocation fails.
#include <cstdio>
#include <vector>

int main() {
    int k, n;
    std::scanf("%d", &k);
    std::vector<int> takes(k);
    for (int &s : takes) std::scanf("%d", &s);
    std::scanf("%d", &n);
    std::vector<long long> heaps(n);
    long long largest = 0;
    for (long long &h : heaps) std::scanf("%lld", &h), largest = h > largest ? h : largest;
    std::vector<int> g(largest + 1);  // bug: no period method, heaps up to 10^18 cannot be tabled
    std::vector<long long> seen(k + 2, -1);
    for (long long x = 1; x <= largest; x++) {
        for (int s : takes)
            if (s <= x) seen[g[x - s]] = x;
        while (seen[g[x]] == x) g[x]++;
    }
    int x = 0;
    for (long long h : heaps) x ^= g[h];
    std::puts(x ? "Yes" : "No");
    return 0;
}
