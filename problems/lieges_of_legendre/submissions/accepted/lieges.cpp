// Reference solution (must be accepted): XOR of g(a_i) with the closed forms for even and odd k (only the parity of k matters), O(log a_i) per pile.
#include <cstdio>

typedef unsigned long long u64;

// g for odd k: g(0..4) = 0 1 0 1 2, odd x >= 5 is 0, even x >= 6 is 2 when g(x/2) = 1 and 1 otherwise.
static int grundy_odd(u64 x) {
    int halvings = 0;
    while (x >= 6 && x % 2 == 0) x /= 2, halvings++;
    static const int small[] = {0, 1, 0, 1, 2, 0};
    int g = x < 6 ? small[x] : 0;  // x is now below 6 or odd
    while (halvings--) g = (g == 1) ? 2 : 1;
    return g;
}

// g for even k: 0 1 2 for x = 0 1 2, then 1 for even x and 0 for odd x.
static int grundy_even(u64 x) {
    if (x <= 2) return (int)x;
    return x % 2 == 0 ? 1 : 0;
}

int main() {
    u64 n, k;
    if (std::scanf("%llu %llu", &n, &k) != 2) return 1;
    bool odd = k % 2 == 1;
    int x = 0;
    for (u64 i = 0; i < n; i++) {
        u64 a;
        if (std::scanf("%llu", &a) != 1) return 1;
        x ^= odd ? grundy_odd(a) : grundy_even(a);
    }
    std::puts(x ? "Kevin" : "Nicky");
    return 0;
}
