/* A small output validator in the Kattis protocol, for the checker benchmarks:
 *   tokens_checker INPUT ANSWER FEEDBACK_DIR/ < program_output
 * Accepts (exit 42) when the output's whitespace-separated tokens are the answer file's;
 * otherwise writes the first difference to FEEDBACK_DIR/judgemessage.txt and exits 43. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The next token of f into buf (at most cap - 1 bytes); 0 at the end. */
static int token(FILE *f, char *buf, size_t cap) {
    int c;
    while ((c = getc(f)) != EOF && isspace(c)) {
    }
    if (c == EOF) return 0;
    size_t n = 0;
    do {
        if (n + 1 < cap) buf[n++] = (char)c;
    } while ((c = getc(f)) != EOF && !isspace(c));
    buf[n] = 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4) return 1; /* not called by a judge: neither 42 nor 43 */
    FILE *answer = fopen(argv[2], "r");
    if (!answer) return 1;
    char want[256], got[256];
    for (long n = 1;; n++) {
        int w = token(answer, want, sizeof want), g = token(stdin, got, sizeof got);
        if (!w && !g) return 42;
        if (w && g && strcmp(want, got) == 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/judgemessage.txt", argv[3]);
        FILE *message = fopen(path, "w");
        if (message) {
            fprintf(message, "token %ld: expected `%s`, got `%s`\n", n, w ? want : "(end)",
                    g ? got : "(end)");
            fclose(message);
        }
        return 43;
    }
}
