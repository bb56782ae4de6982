// Wrong on purpose: it forgets that numbers may be negative. `grundy verify` checks that the
// data catches it.
#include <cstdlib>
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        std::cin >> a;
        sum += std::llabs(a);
    }
    std::cout << sum << "\n";
}
