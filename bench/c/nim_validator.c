/* The input validator of the benchmark's nim package (Kattis protocol: the input on stdin, exit
 * 42 valid, 43 invalid): only digits, spaces, tabs and line ends (`\n`, or `\r\n`); every number
 * below 2^64 without leading zeros; at least one line holding a number (a position). The same
 * rules as problems/nim's own validator with its extended limits, written small. */
#include <stdio.h>
#include <string.h>

static int invalid(const char *why, long line) {
    fprintf(stderr, "line %ld: %s\n", line, why);
    return 43;
}

int main(void) {
    static const char max[] = "18446744073709551615"; /* 2^64 - 1 */
    char digits[24];
    size_t n = 0;
    long line = 1, positions = 0;
    int c, on_line = 0;
    while ((c = getchar()) != EOF) {
        if (c >= '0' && c <= '9') {
            if (n > 0 && digits[0] == '0') return invalid("a leading zero", line);
            if (n == sizeof max - 1) return invalid("a number of 2^64 or more", line);
            digits[n++] = (char)c;
        } else {
            if (n == sizeof max - 1) {
                digits[n] = 0;
                if (strcmp(digits, max) > 0) return invalid("a number of 2^64 or more", line);
            }
            if (n > 0) on_line = 1;
            n = 0;
            if (c == '\r') {
                if ((c = getchar()) != '\n') return invalid("a `\\r` not before `\\n`", line);
            }
            if (c == '\n') {
                positions += on_line;
                on_line = 0;
                line++;
            } else if (c != ' ' && c != '\t') {
                return invalid("a character other than digits, spaces, tabs and line ends", line);
            }
        }
    }
    if (n == sizeof max - 1) {
        digits[n] = 0;
        if (strcmp(digits, max) > 0) return invalid("a number of 2^64 or more", line);
    }
    positions += on_line || n > 0;
    return positions > 0 ? 42 : invalid("no position", line);
}
