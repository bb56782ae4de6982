// Reference solution (must be accepted): per test case a mex table up to its largest heap; above 2^20 the exact preperiod and period from the first repeated window of max S values.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

typedef unsigned long long u64;

static const u64 LIMIT = 1 << 20;  // the statement: preperiod + period + max S <= 2^20 when a heap is above 2^20

// g(0 .. size-1) of the subtraction game with takes S.
static std::vector<unsigned char> grundy_table(const std::vector<int> &takes, u64 size) {
    std::vector<unsigned char> g(size);
    std::vector<u64> seen(takes.size() + 2, ~0ULL);
    for (u64 x = 0; x < size; x++) {
        for (int s : takes)
            if ((u64)s <= x) seen[g[x - s]] = x;
        unsigned char v = 0;
        while (seen[v] == x) v++;
        g[x] = v;
    }
    return g;
}

static const u64 MOD = (1ULL << 61) - 1;
static u64 mulmod(u64 a, u64 b) {
    unsigned __int128 p = (unsigned __int128)a * b;
    u64 r = (u64)(p & MOD) + (u64)(p >> 61);
    return r >= MOD ? r - MOD : r;
}

// The first window g[y .. y+m) equal to an earlier window g[x .. x+m): g is periodic from x with
// period y - x, because g(i + m) is a function of the window at i. Returns false if none exists.
static bool find_period(const std::vector<unsigned char> &g, u64 m, u64 &pre, u64 &per) {
    u64 n = g.size();
    if (n < m + 1) return false;
    u64 windows = n - m + 1;
    const u64 base = 1000003;
    u64 top = 1;  // base^(m-1)
    for (u64 i = 1; i < m; i++) top = mulmod(top, base);
    u64 slots = 1;
    while (slots < 2 * windows) slots <<= 1;
    std::vector<u64> keys(slots);
    std::vector<int64_t> where(slots, -1);
    u64 h = 0;
    for (u64 i = 0; i < m; i++) h = (mulmod(h, base) + g[i] + 1) % MOD;
    for (u64 y = 0; y < windows; y++) {
        if (y > 0) {
            u64 drop = mulmod(g[y - 1] + 1, top);
            h = (h + MOD - drop) % MOD;
            h = (mulmod(h, base) + g[y + m - 1] + 1) % MOD;
        }
        u64 slot = (h * 0x9E3779B97F4A7C15ULL) >> 1 & (slots - 1);
        while (where[slot] >= 0) {
            u64 x = (u64)where[slot];
            if (keys[slot] == h && std::memcmp(&g[x], &g[y], m) == 0) {
                pre = x;
                per = y - x;
                return true;
            }
            slot = (slot + 1) & (slots - 1);
        }
        keys[slot] = h;
        where[slot] = (int64_t)y;
    }
    return false;
}

int main() {
    int k;
    std::string out;
    while (std::scanf("%d", &k) == 1 && k != 0) {
        std::vector<int> takes(k);
        int m = 0;
        for (int &s : takes) std::scanf("%d", &s), m = s > m ? s : m;
        int positions;
        std::scanf("%d", &positions);
        std::vector<std::vector<u64>> heaps(positions);
        u64 largest = 0;
        for (auto &p : heaps) {
            int l;
            std::scanf("%d", &l);
            p.resize(l);
            for (u64 &h : p) std::scanf("%llu", &h), largest = h > largest ? h : largest;
        }
        std::vector<unsigned char> g;
        u64 pre = 0, per = 0;
        if (largest <= LIMIT) {
            g = grundy_table(takes, largest + 1);
        } else {
            g = grundy_table(takes, LIMIT);
            if (!find_period(g, m, pre, per)) return 2;  // outside the extended limits
        }
        for (auto &p : heaps) {
            int x = 0;
            for (u64 h : p) x ^= g[h < g.size() ? h : pre + (h - pre) % per];
            out += x ? 'W' : 'L';
        }
        out += '\n';
    }
    std::fputs(out.c_str(), stdout);
    return 0;
}
