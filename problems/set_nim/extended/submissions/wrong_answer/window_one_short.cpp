// Wrong answer: off-by-one in the period search, it compares windows of max S - 1 values, which do not determine what follows, so it can accept a false period.
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
    // Heaps beyond the table: the last window repeats one period earlier.
    u64 w = m - 1;  // bug: g(x + m) depends on the m values g(x .. x + m - 1), not on m - 1 of them
    u64 last = size - w, per = 1;
    if (largest > LIMIT)
        while (std::memcmp(&g[last - per], &g[last], w) != 0) per++;
    int x = 0;
    for (u64 h : heaps) x ^= g[h < size ? h : last + (h - last) % per];
    std::puts(x ? "Yes" : "No");
    return 0;
}
