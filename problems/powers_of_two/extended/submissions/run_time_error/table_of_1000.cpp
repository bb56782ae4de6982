// Run-time error: a win/loss table computed for the original limit n <= 1000 only; extended n (up to 10^7 in the fixtures) index far past it and crash.
#include <cstdio>
#include <vector>

int main() {
    const int N = 1000;  // bug: the extended limits allow n up to 10^18
    std::vector<int> win(N + 1, 0);
    for (int x = 1; x <= N; x++)
        for (int p = 1; p <= x; p *= 2)
            if (!win[x - p]) win[x] = 1;
    long long n;
    while (std::scanf("%lld", &n) == 1) std::puts(win[n] ? "Kiki" : "Cici");
    return 0;
}
