// The input validator: exit code 42 accepts the input on stdin, 43 rejects it (with a reason on
// stderr). It checks the exact format the statement promises: every space and line break.
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

static std::string text;
static size_t at = 0;

[[noreturn]] static void reject(const std::string& why) {
    std::cerr << why << "\n";
    std::exit(43);
}

static void expect(char c, const std::string& what) {
    if (at >= text.size() || text[at] != c) reject("expected " + what);
    at++;
}

static long long integer(long long low, long long high, const std::string& what) {
    size_t start = at;
    if (at < text.size() && text[at] == '-') at++;
    size_t digits = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') at++;
    std::string word = text.substr(start, at - start);
    bool bad = at == digits || at - digits > 18 || (text[digits] == '0' && at - digits > 1) ||
               word == "-0";
    if (bad) reject(what + ": not an integer at byte " + std::to_string(start));
    long long value = std::stoll(word);
    if (value < low || value > high) reject(what + ": " + word + " is out of range");
    return value;
}

int main() {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    long long n = integer(1, 100000, "n");
    expect('\n', "a line break after n");
    for (long long i = 0; i < n; i++) {
        if (i > 0) expect(' ', "a single space between the integers");
        integer(-1000000000, 1000000000, "a_i");
    }
    expect('\n', "a line break after the integers");
    if (at != text.size()) reject("expected the end of the input");
    return 42;
}
