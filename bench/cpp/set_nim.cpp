// Straightforward scanf solution of set-nim (AcWing 893) for bench/run: the SG table of the
// subtraction game up to the largest heap, then the XOR of the heaps' values.
#include <cstdio>
#include <cstring>

static int takes[105], heaps[105];
static int sg[10005];

int main() {
    int k, n, top = 0;
    if (scanf("%d", &k) != 1) return 1;
    for (int i = 0; i < k; i++) scanf("%d", &takes[i]);
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        scanf("%d", &heaps[i]);
        if (heaps[i] > top) top = heaps[i];
    }
    for (int x = 1; x <= top; x++) {
        bool seen[105];
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < k; i++)
            if (takes[i] <= x) seen[sg[x - takes[i]]] = true;
        int g = 0;
        while (seen[g]) g++;
        sg[x] = g;
    }
    int x = 0;
    for (int i = 0; i < n; i++) x ^= sg[heaps[i]];
    puts(x ? "Yes" : "No");
    return 0;
}
