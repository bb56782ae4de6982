/* The floors of `check --exec`, of checker programs and of interactors: what it costs at least
 * to start the same processes with the same files and pipes, with nothing else (no limits, no
 * containment, no comparison, no measurement). One core, one case after another. Cases come on
 * stdin, one a line: `INPUT` (exec) or `INPUT ANSWER` (checker, interact).
 *
 *   spawn_floor exec PROG < list
 *       fork, exec PROG with the input written into its stdin (a pipe), its stdout read
 *       (a pipe) to the end, wait.
 *   spawn_floor checker PROG CHECKER < list
 *       the same, then fork, exec `CHECKER INPUT ANSWER FEEDBACK_DIR/` with the program's output
 *       written into its stdin (a pipe), wait; the checker must exit 42 (Kattis: accepted).
 *   spawn_floor interact PROG INTERACTOR < list
 *       fork, exec `INTERACTOR INPUT ANSWER FEEDBACK_DIR/` and PROG, the interactor's stdout
 *       the program's stdin and the program's stdout the interactor's stdin (two pipes), wait
 *       for both; the interactor must exit 42, the program 0.
 *
 * The feedback folder is made once (mkdtemp) and removed at the end. Inputs are tiny: one that
 * does not fit a pipe's buffer (60,000 bytes) is refused rather than risk a deadlock. Prints the
 * cases run; any case that did not end as expected is counted and makes the exit status 1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char input_bytes[60000];
static char output_bytes[1 << 20];

static void die(const char *what) {
    perror(what);
    exit(2);
}

static size_t read_file(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) die(path);
    size_t got = 0;
    ssize_t r;
    while (got < cap && (r = read(fd, buf + got, cap - got)) > 0) got += (size_t)r;
    close(fd);
    if (got == cap) {
        fprintf(stderr, "%s: too big for spawn_floor\n", path);
        exit(2);
    }
    return got;
}

static void write_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w <= 0) return; /* the reader left: not the floor's business */
        buf += w;
        len -= (size_t)w;
    }
}

static size_t read_all(int fd, char *buf, size_t cap) {
    size_t got = 0;
    ssize_t r;
    while ((r = read(fd, buf + got, cap - got)) > 0) {
        got += (size_t)r;
        if (got == cap) got = 0; /* keep draining; the bytes are not looked at */
    }
    return got;
}

/* Starts argv with stdin and stdout on the given descriptors. Every other descriptor is
 * close-on-exec (pipe2, O_CLOEXEC), so the child keeps only these. */
static pid_t start(char **argv, int in, int out) {
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0) _exit(126);
        execve(argv[0], argv, environ);
        _exit(127);
    }
    return pid;
}

static int wait_for(pid_t pid) {
    int status;
    if (waitpid(pid, &status, 0) < 0) die("waitpid");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The program on one input: output into output_bytes, returns its length; *code its status. */
static size_t run_program(char *prog, const char *input, int *code) {
    size_t len = read_file(input, input_bytes, sizeof input_bytes);
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0) die("pipe");
    char *argv[] = {prog, NULL};
    pid_t pid = start(argv, to[0], from[1]);
    close(to[0]);
    close(from[1]);
    write_all(to[1], input_bytes, len);
    close(to[1]);
    size_t got = read_all(from[0], output_bytes, sizeof output_bytes);
    close(from[0]);
    *code = wait_for(pid);
    return got;
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "exec") != 0 && argc < 4)) {
        fprintf(stderr, "usage: spawn_floor exec PROG | checker PROG CHECKER | "
                        "interact PROG INTERACTOR  < cases\n");
        return 2;
    }
    const char *mode = argv[1];
    char *prog = argv[2], *judge = argc > 3 ? argv[3] : NULL;
    char feedback[] = "/tmp/spawn-floor-XXXXXX";
    if (!mkdtemp(feedback)) die("mkdtemp");
    char feedback_dir[sizeof feedback + 1];
    snprintf(feedback_dir, sizeof feedback_dir, "%s/", feedback);
    char line[8192];
    unsigned long cases = 0, failed = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *input = strtok(line, " "), *answer = strtok(NULL, " ");
        if (!input) continue;
        if (strcmp(mode, "exec") != 0 && !answer) {
            fprintf(stderr, "spawn_floor: `%s` has no answer file\n", input);
            return 2;
        }
        int ok;
        if (strcmp(mode, "exec") == 0) {
            int code;
            run_program(prog, input, &code);
            ok = code == 0;
        } else if (strcmp(mode, "checker") == 0) {
            int code;
            size_t len = run_program(prog, input, &code);
            int to[2];
            if (pipe2(to, O_CLOEXEC) < 0) die("pipe");
            char *args[] = {judge, input, answer, feedback_dir, NULL};
            int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
            pid_t pid = start(args, to[0], devnull);
            close(to[0]);
            close(devnull);
            write_all(to[1], output_bytes, len);
            close(to[1]);
            ok = code == 0 && wait_for(pid) == 42;
        } else if (strcmp(mode, "interact") == 0) {
            int down[2], up[2]; /* down: interactor to program; up: program to interactor */
            if (pipe2(down, O_CLOEXEC) < 0 || pipe2(up, O_CLOEXEC) < 0) die("pipe");
            char *judge_argv[] = {judge, input, answer, feedback_dir, NULL};
            char *prog_argv[] = {prog, NULL};
            pid_t j = start(judge_argv, up[0], down[1]);
            pid_t p = start(prog_argv, down[0], up[1]);
            close(down[0]);
            close(down[1]);
            close(up[0]);
            close(up[1]);
            int judged = wait_for(j), played = wait_for(p);
            ok = judged == 42 && played == 0;
        } else {
            fprintf(stderr, "spawn_floor: unknown mode `%s`\n", mode);
            return 2;
        }
        cases++;
        if (!ok) failed++;
    }
    char message[sizeof feedback + 32];
    snprintf(message, sizeof message, "%s/judgemessage.txt", feedback);
    unlink(message);
    rmdir(feedback);
    printf("%lu cases, %lu not as expected\n", cases, failed);
    return failed ? 1 : 0;
}
