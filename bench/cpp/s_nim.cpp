// Straightforward scanf solution of s-nim (HDU 1536) for bench/run: per test case, the SG table
// of the subtraction game up to 10^4 (the original limit) with a visited array per value, then
// the XOR of each position's heaps.
#include <cstdio>
#include <cstring>

static int takes[105];
static int sg[10005];

int main() {
    int k;
    while (scanf("%d", &k) == 1 && k != 0) {
        for (int i = 0; i < k; i++) scanf("%d", &takes[i]);
        sg[0] = 0;
        for (int x = 1; x <= 10000; x++) {
            bool seen[105];
            memset(seen, 0, sizeof seen);
            for (int i = 0; i < k; i++)
                if (takes[i] <= x) seen[sg[x - takes[i]]] = true;
            int g = 0;
            while (seen[g]) g++;
            sg[x] = g;
        }
        int m;
        scanf("%d", &m);
        for (int p = 0; p < m; p++) {
            int l, x = 0;
            scanf("%d", &l);
            for (int i = 0; i < l; i++) {
                int h;
                scanf("%d", &h);
                x ^= sg[h];
            }
            putchar(x ? 'W' : 'L');
        }
        putchar('\n');
    }
    return 0;
}
