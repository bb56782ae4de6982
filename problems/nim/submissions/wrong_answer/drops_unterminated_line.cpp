// Wrong answer: answers a position only when its line ends with '\n', so a last line without a final newline is lost.
#include <cstdio>

int main() {
    unsigned long long x = 0, h = 0;
    bool in_number = false, any = false;
    int c;
    while ((c = std::getchar()) != EOF) {
        if (c >= '0' && c <= '9') {
            h = h * 10 + (unsigned long long)(c - '0');
            in_number = true;
            continue;
        }
        if (in_number) x ^= h, any = true;
        h = 0;
        in_number = false;
        if (c == '\n') {
            if (any) std::puts(x ? "win" : "lose");
            x = 0;
            any = false;
        }
    }
    // bug: a position still pending here (no final newline) is never printed
    return 0;
}
