// Wrong answer: treats every line, blank ones included, as a position (a blank line prints "lose").
#include <iostream>
#include <sstream>
#include <string>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        unsigned long long h, x = 0;
        while (in >> h) x ^= h;
        std::cout << (x ? "win" : "lose") << '\n';  // bug: blank lines carry no position
    }
    return 0;
}
