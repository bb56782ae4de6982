// Straightforward scanf solution of powers-of-two for bench/run: Kiki loses exactly when 3 | n.
#include <cstdio>

int main() {
    unsigned long long n;
    while (scanf("%llu", &n) == 1) puts(n % 3 ? "Kiki" : "Cici");
    return 0;
}
