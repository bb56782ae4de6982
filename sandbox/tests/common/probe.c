/* A hostile program for the sandbox's tests: each command tries one thing a judged program
 * must not be able to do (or checks one thing it must see) and prints the result on one line:
 * "ok", "ok <detail>" or "errno <n>". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int result(long r) {
    if (r < 0)
        printf("errno %d\n", errno);
    else
        printf("ok\n");
    return 0;
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "";
    /* "-": the path comes on stdin (a path in argv would be shown to the program on purpose). */
    static char from_stdin[4096];
    if (!strcmp(arg, "-")) {
        ssize_t n = read(0, from_stdin, sizeof from_stdin - 1);
        from_stdin[n > 0 ? n : 0] = 0;
        from_stdin[strcspn(from_stdin, "\n")] = 0;
        arg = from_stdin;
    }
    if (!strcmp(what, "stdin")) {
        char target[256] = {0};
        return result(readlink("/proc/self/fd/0", target, sizeof target - 1)) ||
               printf("%s\n", target) < 0;
    }
    if (!strcmp(what, "read")) {
        int fd = open(arg, O_RDONLY);
        if (fd < 0) return result(fd);
        char buf[4096];
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) return result(n);
        printf("ok %.*s\n", (int)n, buf);
        return 0;
    }
    if (!strcmp(what, "write")) return result(open(arg, O_WRONLY | O_CREAT | O_APPEND, 0644));
    if (!strcmp(what, "rdwr")) return result(open(arg, O_RDWR));
    if (!strcmp(what, "exists")) return result(access(arg, F_OK));
    if (!strcmp(what, "inet")) return result(socket(AF_INET, SOCK_STREAM, 0));
    if (!strcmp(what, "inet6")) return result(socket(AF_INET6, SOCK_DGRAM, 0));
    if (!strcmp(what, "unix")) return result(socket(AF_UNIX, SOCK_STREAM, 0));
    if (!strcmp(what, "io_uring")) {
        char params[120] = {0};
        return result(syscall(SYS_io_uring_setup, 4, params));
    }
    if (!strcmp(what, "untraced")) {
        long pid = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
        if (pid == 0) _exit(0);
        if (pid > 0) waitpid(pid, 0, 0);
        return result(pid);
    }
    if (!strcmp(what, "clone3")) {
        unsigned long long args[11] = {0};
        args[4] = SIGCHLD; /* exit_signal */
        long pid = syscall(SYS_clone3, args, sizeof args);
        if (pid == 0) _exit(0);
        if (pid > 0) waitpid(pid, 0, 0);
        return result(pid);
    }
    if (!strcmp(what, "newuser")) return result(unshare(CLONE_NEWUSER));
    if (!strcmp(what, "mount")) return result(mount("none", "/tmp", "tmpfs", 0, 0));
    if (!strcmp(what, "chattr")) {
        int fd = open("immutable", O_RDONLY | O_CREAT, 0644);
        int flags = FS_IMMUTABLE_FL;
        return result(fd < 0 ? fd : ioctl(fd, FS_IOC_SETFLAGS, &flags));
    }
    if (!strcmp(what, "ids")) {
        gid_t groups[64];
        int n = getgroups(64, groups);
        printf("ok uid=%d gid=%d groups=%d", (int)getuid(), (int)getgid(), n);
        for (int i = 0; i < n; i++) printf(",%d", (int)groups[i]);
        FILE *f = fopen("/proc/self/status", "r");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "CapEff:", 7) || !strncmp(line, "CapBnd:", 7) ||
                !strncmp(line, "NoNewPrivs:", 11))
                printf(" %.*s", (int)strcspn(line, "\n"), line);
        printf("\n");
        return 0;
    }
    if (!strcmp(what, "parent-fds")) {
        /* How many of the parent's (and PID 1's) descriptors can be opened through /proc. */
        int opened = 0;
        int pids[2] = {getppid(), 1};
        for (int p = 0; p < 2; p++)
            for (int fd = 0; fd < 64; fd++) {
                char path[64];
                snprintf(path, sizeof path, "/proc/%d/fd/%d", pids[p], fd);
                int got = open(path, O_RDONLY | O_NONBLOCK);
                if (got >= 0) opened++, close(got);
            }
        printf("ok %d\n", opened);
        return 0;
    }
    if (!strcmp(what, "kill")) return result(kill(atoi(arg), SIGKILL));
    if (!strcmp(what, "kill-all")) {
        /* Everything we may signal, then our parent's group and our parent: none of it may
         * reach the runner or anything outside the run. */
        kill(-1, SIGKILL);
        kill(-getpgid(getppid()), SIGKILL);
        kill(getppid(), SIGKILL);
        return result(0);
    }
    if (!strcmp(what, "forks")) {
        int n = atoi(arg), made = 0;
        for (int i = 0; i < n; i++) {
            pid_t pid = fork();
            if (pid == 0) {
                sleep(30);
                _exit(0);
            }
            if (pid > 0) made++;
        }
        printf("ok %d\n", made);
        fflush(stdout);
        sleep(30);
        return 0;
    }
    printf("unknown command %s\n", what);
    return 2;
}
