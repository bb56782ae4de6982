// Straightforward scanf solution of nim for bench/run: one position per line, "win" when the XOR
// of its heaps is non-zero. The character after each number tells whether the line ended.
#include <cstdio>

int main() {
    unsigned long long h, x = 0;
    char after;
    int got;
    bool any = false;
    while ((got = scanf("%llu%c", &h, &after)) >= 1) {
        x ^= h;
        any = true;
        if (got == 1 || after == '\n' || after == '\r') {
            puts(x ? "win" : "lose");
            x = 0;
            any = false;
        }
    }
    if (any) puts(x ? "win" : "lose");
    return 0;
}
