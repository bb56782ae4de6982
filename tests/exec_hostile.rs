//! Hostile programs through the real binary: each tries to escape its box in one way and prints
//! `blocked` when the way is shut (or what it stole, when it is not), so a case is AC exactly
//! when the escape failed. The expected files of the project must also come out unchanged and
//! no file may appear in the fixtures. A program that ends every process it may signal must not
//! take grundy with it.

use crate::common;
use crate::exec_support;

use common::*;
use exec_support::*;

/// What the program is told to try is the word in its input.
const ESCAPES: &str = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <unistd.h>

/* Prints the file at `path` if it can be read, and says whether it could. */
static int show(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buffer[4096];
    size_t n = fread(buffer, 1, sizeof buffer, f);
    fwrite(buffer, 1, n, stdout);
    fclose(f);
    return n > 0;
}

int main(void) {
    char word[64] = "";
    if (scanf("%63s", word) != 1) return 1;
    if (!strcmp(word, "fd0")) {
        /* Where does stdin come from? If it is the case file, read the expected file beside it. */
        char path[4096];
        ssize_t n = readlink("/proc/self/fd/0", path, sizeof path - 5);
        if (n > 3 && !strncmp(path + n - 3, ".in", 3)) {
            strcpy(path + n - 3, ".out");
            if (show(path)) return 0;
        }
    } else if (!strcmp(word, "path")) {
        if (show(EXPECTED)) return 0;
    } else if (!strcmp(word, "write")) {
        int fd = open(EXPECTED, O_WRONLY | O_TRUNC);
        if (fd >= 0 && write(fd, "blocked\n", 8) == 8) { puts("overwrote"); return 0; }
        fd = open(FIXTURES "/planted.in", O_WRONLY | O_CREAT, 0644);
        if (fd >= 0) { puts("planted"); return 0; }
    } else if (!strcmp(word, "env")) {
        char path[64];
        for (int pid = 1; pid < 4096; pid++) {
            snprintf(path, sizeof path, "/proc/%d/environ", pid);
            FILE *f = fopen(path, "r");
            if (!f) continue;
            char text[65536];
            size_t n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
            text[n] = 0;
            for (size_t i = 0; i < n; i += strlen(text + i) + 1)
                if (strstr(text + i, "GRUNDY_SECRET")) { puts("leaked"); return 0; }
        }
        if (getenv("GRUNDY_SECRET")) { puts("leaked"); return 0; }
    } else if (!strcmp(word, "net")) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s >= 0) {
            struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(PORT) };
            to.sin_addr.s_addr = htonl(0x7f000001);
            if (connect(s, (struct sockaddr *)&to, sizeof to) == 0) { puts("connected"); return 0; }
        }
    } else if (!strcmp(word, "untraced")) {
        long child = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
        if (child == 0) { sleep(30); _exit(0); }
        if (child > 0) { puts("cloned"); return 0; }
    } else if (!strcmp(word, "mount")) {
        if (mount("none", "/tmp", "tmpfs", 0, 0) == 0) { puts("mounted"); return 0; }
    }
    puts("blocked");
    return 0;
}
"#;

#[test]
fn every_way_out_of_the_box_is_shut() {
    let project = Project::new();
    // A listener on the loopback: a program that can connect to it has the network.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let fixtures = project.path().join("fixtures");
    for escape in ["fd0", "path", "write", "env", "net", "untraced", "mount"] {
        project.case(
            &format!("hostile/{escape}"),
            &format!("{escape}\n"),
            "blocked\n",
        );
    }
    let expected = fixtures.join("hostile/path.out");
    let source = format!(
        "#define EXPECTED \"{}\"\n#define FIXTURES \"{}\"\n#define PORT {port}\n{ESCAPES}",
        fixtures.join("hostile/write.out").display(),
        fixtures.join("hostile").display()
    )
    .replacen(
        "show(EXPECTED)",
        &format!("show(\"{}\")", expected.display()),
        1,
    );
    let program = compile(&project, "escapes", &source);
    let before = tree(&fixtures);
    let output = project
        .command(&["check", "--exec", &exec_arg(&program), "-v"])
        .env("GRUNDY_SECRET", "the CI token")
        .output()
        .unwrap();
    assert_eq!(
        code(&output),
        0,
        "every escape must fail\n{}",
        dump(&output)
    );
    assert_eq!(tree(&fixtures), before, "the fixtures are unchanged");
    for escape in ["fd0", "path", "write"] {
        let text = project.read(&format!("fixtures/hostile/{escape}.out"));
        assert_eq!(text, "blocked\n", "{escape}");
    }
    drop(listener);
}

#[test]
fn a_program_that_kills_everything_it_can_does_not_end_grundy() {
    for launch in [Launch::Direct, Launch::NoNamespaces] {
        let project = fixture();
        let program = c_program(&project, "kill-all", "kill(-1, SIGKILL);");
        let args = ["check", "--exec", &exec_arg(&program)];
        let judged = check_json_with(&project, launch, &args);
        // kill(-1) spares the caller: the program may well go on and answer. What matters is
        // that grundy lived to judge every case and finish its report.
        let dump = judged.dump();
        assert!(judged.summary.is_some(), "{launch:?}: no report\n{dump}");
        assert!(judged.cases.contains_key(HOSTILE), "{launch:?}\n{dump}");
        for id in ORDINARY {
            assert_eq!(judged.verdict(id), "AC", "{launch:?}\n{dump}");
        }
    }
}

#[test]
fn a_weaker_containment_is_named_once_and_strict_mode_refuses_it() {
    let project = fixture();
    let program = c_program(&project, "plain", "");
    let exec = exec_arg(&program);
    // Without namespaces there is no root of the program's own: said once, before judging.
    let output = grundy(&project, Launch::NoNamespaces, &["check", "--exec", &exec])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let notes = stderr(&output);
    assert_eq!(
        notes
            .matches("note: judged programs here are contained without")
            .count(),
        1,
        "{notes}"
    );
    assert!(notes.contains("a root of their own"), "{notes}");
    let args = ["check", "--exec", &exec, "--isolate", "strict"];
    let output = grundy(&project, Launch::NoNamespaces, &args)
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("--isolate strict: this machine cannot contain"),
        "{}",
        dump(&output)
    );
    assert!(
        !stdout(&output).contains("passed"),
        "nothing was judged\n{}",
        dump(&output)
    );
    project.file("runner.toml", "isolate = \"strict\"\n");
    let output = grundy(&project, Launch::NoNamespaces, &["check", "--exec", &exec])
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    project.file("runner.toml", "isolate = \"sometimes\"\n");
    let output = grundy(&project, Launch::Direct, &["check"])
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("runner.toml:1:11: isolate must be"),
        "{}",
        dump(&output)
    );
}

#[test]
fn programs_get_the_variables_passed_with_env_and_no_others() {
    let project = Project::new();
    project.case("env/one", "\n", "bar inherited unset\n");
    let program = project.file(
        "show-env.sh",
        "#!/bin/sh\necho \"$FOO ${KEEP:-none} ${GRUNDY_SECRET:-unset}\"\n",
    );
    let mut permissions = std::fs::metadata(&program).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&program, permissions).unwrap();
    let exec = exec_arg(&program);
    let output = project
        .command(&[
            "check", "--exec", &exec, "--env", "FOO=bar", "--env", "KEEP",
        ])
        .env("KEEP", "inherited")
        .env("GRUNDY_SECRET", "the CI token")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let output = project.grundy(&["check", "--exec", &exec, "--env", "NOT_SET_ANYWHERE_42"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("NOT_SET_ANYWHERE_42"),
        "{}",
        dump(&output)
    );
}

/// Where nothing can keep the host's files from a program (no namespaces, no Landlock), grundy
/// judges no program unless told to trust them, by flag or in runner.toml.
#[test]
fn without_namespaces_or_landlock_programs_are_judged_only_when_trusted() {
    let project = fixture();
    let program = c_program(&project, "plain", "");
    let exec = exec_arg(&program);
    let launch = Launch::NoNamespacesNoLandlock;
    let output = grundy(&project, launch, &["check", "--exec", &exec])
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let said = stderr(&output);
    assert!(
        said.contains("cannot keep judged programs away from your files")
            && said.contains("`--isolate off`"),
        "{}",
        dump(&output)
    );
    assert!(!stdout(&output).contains("passed"), "{}", dump(&output));
    let judged = check_json_with(
        &project,
        launch,
        &["check", "--exec", &exec, "--isolate", "off"],
    );
    judged.assert_verdicts("AC");
    assert!(
        stderr(&judged.output).contains("keeping the host's files from programs"),
        "the note says what is missing\n{}",
        judged.dump()
    );
    // The user's own file: here, and writable by its owner alone whatever the umask.
    set_mode(&project.file("runner.toml", "isolate = \"off\"\n"), 0o644);
    check_json_with(&project, launch, &["check", "--exec", &exec]).assert_verdicts("AC");
}
