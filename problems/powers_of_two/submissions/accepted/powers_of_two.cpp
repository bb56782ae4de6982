// Reference solution (must be accepted): no power of two is a multiple of 3, so Cici wins exactly when 3 divides n (any n up to 10^18).
#include <cstdio>

int main() {
    unsigned long long n;
    while (std::scanf("%llu", &n) == 1) std::puts(n % 3 == 0 ? "Cici" : "Kiki");
    return 0;
}
