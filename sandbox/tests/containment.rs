//! Nothing of a run outlives it: forks, fork bombs, setsid() escapes, files in its working
//! directory; and the errors for programs that cannot be started.

mod common;

use std::time::Duration;

use common::*;
use grundy_sandbox::{End, SpawnError};

const BOMB: &str = r#"
#include <unistd.h>
/* Bounded by construction: at most 2^9 = 512 processes even with no containment at all. */
int main(void) {
    for (int i = 0; i < 9; i++) fork();
    sleep(30);
    return 0;
}
"#;

const ESCAPE: &str = r#"
#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) { sleep(30); return 0; }
        sleep(30);
        return 0;
    }
    puts("parent done");
    return 0;
}
"#;

#[test]
fn a_fork_bomb_ends_and_leaves_nothing() {
    let exe = c_program("bomb", BOMB);
    for containment in available_containments() {
        let mark = marker("bomb");
        let o = run_with(
            &program([exe.as_os_str(), mark.as_ref()]),
            &input(b""),
            &limits(1000, 256, 1024),
            containment,
        )
        .unwrap();
        assert!(
            matches!(o.end, End::TimeLimit(_) | End::ProcessLimit),
            "{containment}: {o:?}"
        );
        // Ended by the process cap, the CPU clock or at the latest the wall-clock backstop.
        assert!(o.wall_time < Duration::from_secs(5), "{o:?}");
        assert_gone(&mark);
    }
}

#[test]
fn a_setsid_child_holding_stdout_is_killed() {
    let exe = c_program("escape", ESCAPE);
    for containment in available_containments() {
        let mark = marker("escape");
        let o = run_with(
            &program([exe.as_os_str(), mark.as_ref()]),
            &input(b""),
            &limits(3000, 256, 1024),
            containment,
        )
        .unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        assert_eq!(o.stdout, b"parent done\n");
        assert!(o.wall_time < Duration::from_secs(2), "{containment}: {o:?}");
        assert_gone(&mark);
    }
}

#[test]
fn files_written_in_the_working_directory_disappear() {
    let before: Vec<_> = std::fs::read_dir(".")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    for containment in available_containments() {
        let o = run_with(
            &sh("echo data > made-by-sandbox-test; mkdir -p d/e; chmod 000 d; pwd"),
            &input(b""),
            &default_limits(),
            containment,
        )
        .unwrap();
        assert_eq!(o.end, End::Exited(0), "{o:?}");
        // Working directories are reused (emptied) within a process and removed at its exit.
        let cwd = String::from_utf8(o.stdout).unwrap();
        let left = std::fs::read_dir(cwd.trim()).map_or(0, |d| d.count());
        assert_eq!(left, 0, "files left in {cwd}");
    }
    assert!(!std::path::Path::new("made-by-sandbox-test").exists());
    let after: Vec<_> = std::fs::read_dir(".")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(before.len(), after.len());
}

#[test]
fn a_missing_command_is_not_found() {
    for argv in [["no-such-command-grundy"], ["./no-such-file-grundy"]] {
        let err = run(&program(argv), &input(b""), &default_limits()).unwrap_err();
        assert!(matches!(err, SpawnError::NotFound { .. }), "{err:?}");
        assert!(err.to_string().contains("no-such"), "{err}");
    }
}

#[test]
fn a_file_without_execute_permission_is_not_executable() {
    let path = input(b"#!/bin/sh\necho hi\n");
    let err = run(&program([&path]), &input(b""), &default_limits()).unwrap_err();
    assert!(matches!(err, SpawnError::NotExecutable { .. }), "{err:?}");
    assert!(err.to_string().contains("chmod +x"), "{err}");
}

#[test]
fn an_unrunnable_file_is_reported_by_exec() {
    use std::os::unix::fs::PermissionsExt;
    let path = input(b"\x7fELF garbage");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = run(&program([&path]), &input(b""), &default_limits()).unwrap_err();
    assert!(matches!(err, SpawnError::NotExecutable { .. }), "{err:?}");
}

#[test]
fn concurrent_runs_are_all_correct() {
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                for i in 0..15 {
                    let n = t * 100 + i;
                    let o = run(
                        &sh("read x; echo $((x * 2)); exit $((x % 7))"),
                        &input(format!("{n}\n").as_bytes()),
                        &default_limits(),
                    )
                    .unwrap();
                    assert_eq!(o.stdout, format!("{}\n", n * 2).as_bytes());
                    assert_eq!(o.end, End::Exited(n % 7));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn no_descriptors_leak() {
    // Descriptors are the whole process's, and the other tests of this binary open theirs
    // meanwhile (boxes kept for reuse, pipes): the count is taken in a process of its own.
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "descriptors_after_many_runs", "--ignored"])
        .args(["--test-threads", "1", "--nocapture"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && text.contains("1 passed"),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
#[ignore = "run by no_descriptors_leak, in a process where no other test opens descriptors"]
fn descriptors_after_many_runs() {
    let count = || std::fs::read_dir("/proc/self/fd").unwrap().count();
    run(&sh("true"), &input(b""), &default_limits()).unwrap();
    let before = count();
    for _ in 0..20 {
        run(&sh("echo x"), &input(b""), &default_limits()).unwrap();
    }
    assert!(count() <= before + 2, "{} -> {}", before, count());
}
