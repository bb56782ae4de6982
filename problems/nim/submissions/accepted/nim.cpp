// Reference solution (must be accepted): Bouton's theorem, XOR of each line's heaps as unsigned 64-bit (extended heaps reach 2^64 - 1); blank lines skipped.
#include <cstdio>
#include <string>
#include <vector>

int main() {
    std::string line;
    std::string out;
    int c = 0;
    while (c != EOF) {
        line.clear();
        while ((c = std::getchar()) != EOF && c != '\n') line += (char)c;
        unsigned long long x = 0, h = 0;
        bool any = false, in_number = false;
        for (char ch : line) {
            if (ch >= '0' && ch <= '9') {
                h = h * 10 + (unsigned long long)(ch - '0');
                in_number = true;
            } else {
                if (in_number) x ^= h, any = true;
                h = 0;
                in_number = false;
            }
        }
        if (in_number) x ^= h, any = true;
        if (any) out += x ? "win\n" : "lose\n";
    }
    std::fputs(out.c_str(), stdout);
    return 0;
}
