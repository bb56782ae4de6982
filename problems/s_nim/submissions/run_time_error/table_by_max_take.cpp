// Run-time error: sizes and fills the Grundy table up to max S instead of up to the largest heap; the checked lookup g.at(h) throws for a bigger heap.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int k;
    while (std::scanf("%d", &k) == 1 && k != 0) {
        std::vector<int> takes(k);
        for (int &s : takes) std::scanf("%d", &s);
        int top = *std::max_element(takes.begin(), takes.end());
        std::vector<int> g(top + 1), seen(k + 2, -1);  // bug: heaps go beyond max S
        for (int x = 1; x <= top; x++) {
            for (int s : takes)
                if (s <= x) seen[g[x - s]] = x;
            while (seen[g[x]] == x) g[x]++;
        }
        int positions;
        std::scanf("%d", &positions);
        for (int i = 0; i < positions; i++) {
            int l, x = 0;
            std::scanf("%d", &l);
            for (int j = 0; j < l; j++) {
                long long h;
                std::scanf("%lld", &h);
                x ^= g.at(h);  // out_of_range as soon as a heap exceeds max S
            }
            std::putchar(x ? 'W' : 'L');
        }
        std::putchar('\n');
    }
    return 0;
}
