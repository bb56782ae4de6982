// Wrong answer: for odd k starts the halving rule at 4 instead of 6 (g(4) comes out 1, not 2), an off-by-one in the base table.
#include <cstdio>

static int grundy_odd(unsigned long long x) {
    if (x < 4) {
        static const int small[] = {0, 1, 0, 1};
        return small[x];
    }
    if (x % 2 == 1) return 0;
    return grundy_odd(x / 2) == 1 ? 2 : 1;  // bug: g(4) = mex{g(3), g(2)} = mex{1, 0} = 2, the rule only holds from 6
}

int main() {
    unsigned long long n, k;
    std::scanf("%llu %llu", &n, &k);
    int x = 0;
    for (unsigned long long i = 0; i < n; i++) {
        unsigned long long a;
        std::scanf("%llu", &a);
        int g;
        if (k % 2 == 1) g = grundy_odd(a);
        else g = a <= 2 ? (int)a : (a % 2 == 0 ? 1 : 0);
        x ^= g;
    }
    std::puts(x ? "Kevin" : "Nicky");
    return 0;
}
