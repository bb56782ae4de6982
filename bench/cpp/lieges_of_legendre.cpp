// Straightforward scanf solution of lieges-of-legendre (Codeforces 603C) for bench/run:
// the XOR of g(a_i), with the usual closed form for even k and recursion on a/2 for odd k.
#include <cstdio>

static int grundy(unsigned long long a, bool odd_k) {
    if (!odd_k) {
        if (a <= 2) return (int)a;
        return a % 2 == 0 ? 1 : 0;
    }
    if (a < 5) {
        static const int small[] = {0, 1, 0, 1, 2};
        return small[a];
    }
    if (a % 2 == 1) return 0;
    return grundy(a / 2, odd_k) == 1 ? 2 : 1;
}

int main() {
    long long n;
    unsigned long long k;
    if (scanf("%lld %llu", &n, &k) != 2) return 1;
    int x = 0;
    for (long long i = 0; i < n; i++) {
        unsigned long long a;
        if (scanf("%llu", &a) != 1) return 1;
        x ^= grundy(a, k % 2 == 1);
    }
    puts(x ? "Kevin" : "Nicky");
    return 0;
}
