// Wrong answer: adds the heaps instead of XOR-ing them (loses only when every heap is empty).
#include <cstdio>

int main() {
    unsigned long long h, total = 0;
    char after;
    int got;
    bool any = false;
    while ((got = std::scanf("%llu%c", &h, &after)) >= 1) {
        total += h;  // bug: should be total ^= h
        any = true;
        if (got == 1 || after == '\n' || after == '\r') {
            if (got == 2 && after == '\r') std::scanf("%*c");
            std::puts(total ? "win" : "lose");
            total = 0;
            any = false;
        }
    }
    if (any) std::puts(total ? "win" : "lose");
    return 0;
}
