/* The interactor of the interactive benchmark, in the Kattis protocol:
 *   guess_interactor INPUT ANSWER FEEDBACK_DIR/
 * INPUT holds a secret number from 1 to 100. The program guesses, one number a line; the
 * interactor answers each with `<` (the secret is smaller), `>` (larger) or `=`, flushing each
 * line. A right guess within 7 is accepted (exit 42); anything else is rejected (exit 43, the
 * reason in FEEDBACK_DIR/judgemessage.txt). ANSWER is not needed. */
#include <stdio.h>
#include <stdlib.h>

static const char *feedback;

static int reject(const char *why) {
    char path[4096];
    snprintf(path, sizeof path, "%s/judgemessage.txt", feedback);
    FILE *message = fopen(path, "w");
    if (message) {
        fprintf(message, "%s\n", why);
        fclose(message);
    }
    return 43;
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    feedback = argv[3];
    FILE *input = fopen(argv[1], "r");
    long secret;
    if (!input || fscanf(input, "%ld", &secret) != 1) return 1;
    for (int turn = 0; turn < 7; turn++) {
        long guess;
        if (scanf("%ld", &guess) != 1) return reject("no guess");
        if (guess == secret) {
            puts("=");
            fflush(stdout);
            return 42;
        }
        puts(guess > secret ? "<" : ">");
        fflush(stdout);
    }
    return reject("seven guesses, none right");
}
