/* A small contestant-style Nim solution for the --exec benchmark: one position per line, prints
 * "win" when the XOR of the heaps is non-zero, else "lose". */
#include <stdio.h>

int main(void) {
    unsigned long long heap, x = 0;
    int any = 0, c;
    while ((c = getchar()) != EOF) {
        if (c >= '0' && c <= '9') {
            heap = (unsigned long long)(c - '0');
            while ((c = getchar()) >= '0' && c <= '9') heap = heap * 10 + (unsigned long long)(c - '0');
            x ^= heap;
            any = 1;
        }
        if (c == '\n' || c == EOF) {
            if (any) puts(x ? "win" : "lose");
            x = 0;
            any = 0;
            if (c == EOF) break;
        }
    }
    if (any) puts(x ? "win" : "lose");
    return 0;
}
