// A random input: `random SEED` prints one, the same for the same seed.
#include <iostream>
#include <random>
#include <string>

int main(int argc, char** argv) {
    std::mt19937_64 rng(argc > 1 ? std::stoull(argv[1]) : 0);
    auto between = [&](long long low, long long high) {
        return low + (long long)(rng() % (unsigned long long)(high - low + 1));
    };
    int n = (int)between(1, 10);
    std::cout << n << "\n";
    for (int i = 0; i < n; i++) std::cout << (i ? " " : "") << between(-1000000000, 1000000000);
    std::cout << "\n";
}
