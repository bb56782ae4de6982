// Wrong answer: ignores the parity of k and always uses the even-k values (0 1 2, then 1 for even and 0 for odd piles).
#include <cstdio>

int main() {
    unsigned long long n, k;
    std::scanf("%llu %llu", &n, &k);  // bug: k is read but its parity never looked at
    int x = 0;
    for (unsigned long long i = 0; i < n; i++) {
        unsigned long long a;
        std::scanf("%llu", &a);
        x ^= a <= 2 ? (int)a : (a % 2 == 0 ? 1 : 0);
    }
    std::puts(x ? "Kevin" : "Nicky");
    return 0;
}
