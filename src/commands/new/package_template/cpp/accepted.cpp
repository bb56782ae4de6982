#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        std::cin >> a;
        sum += a;
    }
    std::cout << sum << "\n";
}
