// Wrong answer: finds the right period but assumes g is periodic from 0, answering g(h mod period) and ignoring the preperiod.
#include <cstdio>
#include <cstring>
#include <vector>

typedef unsigned long long u64;
static const u64 LIMIT = 1 << 20;

int main() {
    int k, n, m = 0;
    std::scanf("%d", &k);
    std::vector<int> takes(k);
    for (int &s : takes) std::scanf("%d", &s), m = s > m ? s : m;
    std::scanf("%d", &n);
    std::vector<u64> heaps(n);
    u64 largest = 0;
    for (u64 &h : heaps) std::scanf("%llu", &h), largest = h > largest ? h : largest;
    u64 size = largest <= LIMIT ? largest + 1 : LIMIT;
    std::vector<unsigned char> g(size);
    std::vector<u64> seen(k + 2, ~0ULL);
    for (u64 x = 0; x < size; x++) {
        for (int s : takes)
            if ((u64)s <= x) seen[g[x - s]] = x;
        while (seen[g[x]] == x) g[x]++;
    }
    // Heaps beyond the table: the last window of m values repeats one period earlier.
    u64 last = size - m, per = 1;
    if (largest > LIMIT)
        while (std::memcmp(&g[last - per], &g[last], m) != 0) per++;
    int x = 0;
    for (u64 h : heaps) x ^= g[h < size ? h : h % per];  // bug: g(h) = g(h mod per) only without a preperiod
    std::puts(x ? "Yes" : "No");
    return 0;
}
