/* The hand-written validator bench/checktestdata.sh times the built-in checktestdata interpreter
 * against: the same format as its script (n in [1, 10^6] on a line, then n integers in
 * [-10^9, 10^9] separated by single spaces, a newline, the end), read whole with fread, every
 * byte checked as strictly (no leading zeros, no -0). Exit 0 valid, 1 invalid. */
#include <stdio.h>
#include <stdlib.h>

static unsigned char *p, *end;

static int integer(long long lo, long long hi, long long *out) {
    int negative = 0;
    if (p < end && *p == '-') { negative = 1; p++; }
    unsigned char *start = p;
    long long value = 0;
    while (p < end && *p >= '0' && *p <= '9' && p - start < 19) value = value * 10 + (*p++ - '0');
    if (p == start || (p - start > 1 && *start == '0') || (negative && *start == '0')) return 0;
    if (p < end && *p >= '0' && *p <= '9') return 0;
    if (negative) value = -value;
    if (value < lo || value > hi) return 0;
    *out = value;
    return 1;
}

static int byte(unsigned char c) { return p < end && *p++ == c; }

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f) return 2;
    size_t cap = 1 << 20, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    p = buf; end = buf + len;
    long long n, x;
    if (!integer(1, 1000000, &n) || !byte('\n')) return 1;
    for (long long i = 0; i < n; i++) {
        if (i > 0 && !byte(' ')) return 1;
        if (!integer(-1000000000, 1000000000, &x)) return 1;
    }
    if (!byte('\n') || p != end) return 1;
    return 0;
}
