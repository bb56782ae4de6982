// The answer validator: exit code 42 accepts the answer on stdin (the input's path is the first
// argument), 43 rejects it. The answer is one integer on a line: the sum of the input's.
#include <iostream>
#include <iterator>
#include <regex>
#include <string>

int main() {
    std::string text(std::istreambuf_iterator<char>(std::cin), {});
    if (!std::regex_match(text, std::regex("(0|-?[1-9][0-9]{0,14})\n"))) {
        std::cerr << "the answer must be one integer on a line\n";
        return 43;
    }
    return 42;
}
