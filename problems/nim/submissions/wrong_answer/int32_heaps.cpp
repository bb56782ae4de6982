// Wrong answer: reads heaps into a 32-bit int, so heaps up to 10^18 lose their high bits.
#include <cstdio>

int main() {
    int h, x = 0;  // bug: heaps go up to 10^18, they need 64 bits
    char after;
    int got;
    bool any = false;
    while ((got = std::scanf("%d%c", &h, &after)) >= 1) {
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
