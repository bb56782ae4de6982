// Wrong answer: reads heaps as signed long long; extended heaps above 2^63 - 1 (up to 2^64 - 1) saturate and the XOR goes wrong.
#include <cstdio>

int main() {
    long long h, x = 0;  // bug: extended heaps reach 2^64 - 1, which needs unsigned 64 bits
    char after;
    int got;
    bool any = false;
    while ((got = std::scanf("%lld%c", &h, &after)) >= 1) {
        x ^= h;
        any = true;
        if (got == 1 || after == '\n' || after == '\r') {
            if (got == 2 && after == '\r') std::scanf("%*c");
            std::puts(x ? "win" : "lose");
            x = 0;
            any = false;
        }
    }
    if (any) std::puts(x ? "win" : "lose");
    return 0;
}
