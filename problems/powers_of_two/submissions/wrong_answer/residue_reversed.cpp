// Wrong answer: swaps the winners, Kiki when 3 divides n and Cici otherwise.
#include <cstdio>

int main() {
    unsigned long long n;
    while (std::scanf("%llu", &n) == 1) std::puts(n % 3 == 0 ? "Kiki" : "Cici");  // bug: reversed
    return 0;
}
