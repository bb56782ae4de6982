// Wrong answer: ignores the parity of k and always uses the odd-k values (0 1 0 1 2, then the halving rule).
#include <cstdio>

static int grundy(unsigned long long x) {
    if (x < 5) {
        static const int small[] = {0, 1, 0, 1, 2};
        return small[x];
    }
    if (x % 2 == 1) return 0;
    return grundy(x / 2) == 1 ? 2 : 1;
}

int main() {
    unsigned long long n, k;
    std::scanf("%llu %llu", &n, &k);  // bug: k is read but its parity never looked at
    int x = 0;
    for (unsigned long long i = 0; i < n; i++) {
        unsigned long long a;
        std::scanf("%llu", &a);
        x ^= grundy(a);
    }
    std::puts(x ? "Kevin" : "Nicky");
    return 0;
}
