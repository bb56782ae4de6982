// Time limit exceeded: recomputes the win/loss table from scratch up to each n instead of using n mod 3; extended n near 10^7, many times over, is far too slow.
#include <cstdio>
#include <vector>

int main() {
    long long n;
    while (std::scanf("%lld", &n) == 1) {
        std::vector<char> win(n + 1, 0);  // bug: O(n log n) work for every query
        for (long long x = 1; x <= n; x++)
            for (long long p = 1; p <= x; p *= 2)
                if (!win[x - p]) {
                    win[x] = 1;
                    break;
                }
        std::puts(win[n] ? "Kiki" : "Cici");
    }
    return 0;
}
