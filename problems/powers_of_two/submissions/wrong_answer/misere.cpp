// Wrong answer: solves the misere game (whoever takes the last card loses), where the losing piles are n = 1 mod 3.
#include <cstdio>

int main() {
    unsigned long long n;
    while (std::scanf("%llu", &n) == 1) std::puts(n % 3 == 1 ? "Cici" : "Kiki");  // bug: last card wins here
    return 0;
}
