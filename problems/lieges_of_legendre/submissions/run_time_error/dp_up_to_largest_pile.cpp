// Run-time error (grundy: MLE): a mex DP over every pile size up to the largest pile, 10^9 bytes of table for a_i near 10^9, far above 256 MiB.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    long long n, k;
    std::scanf("%lld %lld", &n, &k);
    std::vector<long long> a(n);
    for (auto &x : a) std::scanf("%lld", &x);
    long long top = *std::max_element(a.begin(), a.end());
    std::vector<unsigned char> g(top + 1);  // bug: a_i goes up to 10^9
    for (long long x = 1; x <= top; x++) {
        int take = g[x - 1];
        int split = (x % 2 == 0 && k % 2 == 1) ? g[x / 2] : (x % 2 == 0 ? 0 : -1);
        int m = 0;
        while (m == take || m == split) m++;
        g[x] = (unsigned char)m;
    }
    int s = 0;
    for (long long x : a) s ^= g[x];
    std::puts(s ? "Kevin" : "Nicky");
    return 0;
}
