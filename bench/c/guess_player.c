/* The program of the interactive benchmark: finds guess_interactor's secret (1 to 100) by
 * halving, one guess a line, flushed, until the interactor answers `=`. */
#include <stdio.h>

int main(void) {
    int low = 1, high = 100;
    char reply[8];
    while (low <= high) {
        int guess = (low + high) / 2;
        printf("%d\n", guess);
        fflush(stdout);
        if (scanf("%7s", reply) != 1) return 1;
        if (reply[0] == '=') return 0;
        if (reply[0] == '<') high = guess - 1;
        else low = guess + 1;
    }
    return 1;
}
