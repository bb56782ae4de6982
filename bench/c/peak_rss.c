/* peak_rss OUTFILE COMMAND [ARGS...]: runs COMMAND with this process's stdin and stdout, waits for
 * it with wait4(2) and writes its peak resident set size (ru_maxrss, KiB) to OUTFILE. A tiny C
 * parent, so the child's RSS before exec (which ru_maxrss also remembers) is small; a Python
 * parent would add its own ~14 MiB. Exits with the command's status. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: peak_rss OUTFILE COMMAND [ARGS...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) return 2;
    FILE *out = fopen(argv[1], "w");
    if (!out) return 2;
    fprintf(out, "%ld\n", usage.ru_maxrss);
    fclose(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
