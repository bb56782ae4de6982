//! A hostile program against every containment this machine offers: what it must not see,
//! write, signal, open, mount or start. Tests that only mean something as root (the program
//! then runs as a box user instead of grundy's own) are ignored otherwise, with the reason.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::*;
use grundy_sandbox::{Containment, End, Program, Spec, Stdin};

fn refused(line: &str) -> bool {
    line.starts_with("errno ")
}

#[test]
fn stdin_is_a_pipe_and_never_the_input_file() {
    let fixture = input(b"42\n");
    let exe = probe();
    let program = program([exe.as_os_str(), "stdin".as_ref()]);
    for containment in available_containments() {
        let o = run_with(&program, &fixture, &default_limits(), containment).unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(out.contains("pipe:["), "{containment}: {out}");
        assert!(!out.contains(".in"), "{containment}: {out}");
    }
}

#[test]
#[cfg_attr(
    not(boxes),
    ignore = "needs a box: namespaces were refused at build time"
)]
fn a_box_shows_none_of_the_host_files() {
    let fixture = input(b"1\n");
    let neighbour = fixture.with_extension("out");
    std::fs::write(&neighbour, b"the expected answer").unwrap();
    let host_tmp = std::env::temp_dir().join(format!("grundy-host-marker-{}", std::process::id()));
    std::fs::write(&host_tmp, b"x").unwrap();
    let folders = [
        fixture.parent().unwrap().to_path_buf(),
        neighbour.clone(),
        fixture.clone(),
        host_tmp.clone(),
        PathBuf::from("/root"),
        PathBuf::from("/home"),
        PathBuf::from("/run"),
        PathBuf::from("/sys/fs/cgroup"),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    ];
    let seen: Vec<(&PathBuf, String)> = folders
        .iter()
        .map(|path| {
            let asked = path.to_str().unwrap().as_bytes();
            (
                path,
                probe_says_on(Containment::PidNamespace, &["exists", "-"], asked),
            )
        })
        .collect();
    let _ = std::fs::remove_file(&host_tmp);
    for (path, line) in seen {
        assert!(refused(&line), "{} is visible: {line}", path.display());
    }
    // What is there: the system folders, its own working folder and /tmp.
    let o = run(
        &sh("ls /; cat /etc/passwd >/dev/null && echo etc-ok"),
        &fixture,
        &default_limits(),
    )
    .unwrap();
    let listing = String::from_utf8(o.stdout).unwrap();
    for expected in ["box", "dev", "etc", "proc", "tmp", "usr", "etc-ok"] {
        assert!(listing.lines().any(|l| l == expected), "{listing}");
    }
    for hidden in ["root", "home", "run", "sys", "srv", "opt"] {
        assert!(!listing.lines().any(|l| l == hidden), "{listing}");
    }
}

#[test]
#[cfg_attr(
    not(boxes),
    ignore = "needs a box: namespaces were refused at build time"
)]
fn a_box_program_writes_only_in_its_working_folder_and_tmp() {
    let exe = probe();
    let own_folder = exe.parent().unwrap().join("written-by-the-box");
    for (path, allowed) in [
        ("/box/fine", true),
        ("/tmp/fine", true),
        ("fine-too", true),
        ("/new-at-the-root", false),
        ("/usr/evil", false),
        ("/etc/evil", false),
        ("/dev/evil", false),
        ("/proc/evil", false),
        (exe.to_str().unwrap(), false),
    ] {
        let line = probe_says(Containment::PidNamespace, &["write", path]);
        assert_eq!(!refused(&line), allowed, "writing {path}: {line}");
    }
    // Next to its own file: refused, or (a file under /tmp, whose folders the box recreates in
    // its private /tmp) written there; never on the host.
    probe_says(
        Containment::PidNamespace,
        &["write", own_folder.to_str().unwrap()],
    );
    assert!(!own_folder.exists());
}

#[test]
fn the_runner_and_the_supervisor_are_out_of_reach() {
    let me = std::process::id().to_string();
    for containment in available_containments() {
        for (what, path) in [
            ("read", format!("/proc/{me}/environ")),
            ("rdwr", format!("/proc/{me}/mem")),
            ("read", format!("/proc/{me}/cmdline")),
        ] {
            let line = probe_says_on(containment, &[what, "-"], path.as_bytes());
            if containment == Containment::PidNamespace {
                // Not even there: the box has its own PID namespace.
                assert!(refused(&line), "{containment} {path}: {line}");
            } else if what != "read" || path.ends_with("environ") {
                assert!(refused(&line), "{containment} {path}: {line}");
            }
        }
        let line = probe_says(containment, &["parent-fds"]);
        assert_eq!(
            line, "ok 0",
            "{containment}: opened its parent's descriptors"
        );
    }
}

#[test]
fn there_is_no_network() {
    for containment in available_containments() {
        for family in ["inet", "inet6", "io_uring"] {
            let line = probe_says(containment, &[family]);
            assert!(refused(&line), "{containment} {family}: {line}");
        }
        // Unix sockets only where a network namespace keeps them inside the box.
        let line = probe_says(containment, &["unix"]);
        assert_eq!(
            refused(&line),
            containment != Containment::PidNamespace,
            "{containment}: {line}"
        );
    }
}

#[test]
fn untraced_clones_new_namespaces_and_clone3_are_refused() {
    for containment in available_containments() {
        let eperm = format!("errno {}", libc::EPERM);
        assert_eq!(
            probe_says(containment, &["untraced"]),
            eperm,
            "{containment}"
        );
        assert_eq!(
            probe_says(containment, &["newuser"]),
            eperm,
            "{containment}"
        );
        let enosys = format!("errno {}", libc::ENOSYS);
        assert_eq!(
            probe_says(containment, &["clone3"]),
            enosys,
            "{containment}"
        );
    }
}

#[test]
fn four_hundred_processes_are_a_process_limit() {
    let exe = probe();
    let program = program([exe.as_os_str(), "forks".as_ref(), "400".as_ref()]);
    for containment in available_containments() {
        let mark = marker("forks");
        let tagged = program_with_marker(&program, &mark);
        let o = run_with(&tagged, &input(b""), &limits(20_000, 256, 64), containment).unwrap();
        assert_eq!(o.end, End::ProcessLimit, "{containment}: {o:?}");
        assert_gone(&mark);
    }
}

#[test]
fn nothing_of_the_machine_is_hurt_by_kill_minus_one() {
    // A bystander of the test's own user, and the runner itself (this process).
    let mut bystander = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let exe = probe();
    for containment in available_containments() {
        let o = run_with(
            &program([exe.as_os_str(), "kill-all".as_ref()]),
            &input(b""),
            &default_limits(),
            containment,
        )
        .unwrap();
        // The program may die of its own kill (kill(-1) spares the caller, not its group).
        assert!(
            matches!(o.end, End::Exited(0) | End::Signaled { .. }),
            "{containment}: {o:?}"
        );
        assert!(
            bystander.try_wait().unwrap().is_none(),
            "{containment} killed a bystander"
        );
    }
    bystander.kill().unwrap();
    bystander.wait().unwrap();
}

#[test]
fn a_program_under_a_private_folder_runs_with_its_private_files() {
    // A 0700 folder (as a clone under /root or a mktemp -d has), holding the program and a
    // data file only its owner may read.
    let private = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sandbox-tests")
        .join(format!("private-{}", std::process::id()));
    std::fs::create_dir_all(&private).unwrap();
    let exe = private.join("probe");
    std::fs::copy(probe(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o700)).unwrap();
    let data = private.join("data.txt");
    std::fs::write(&data, b"secret sauce").unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    for containment in available_containments() {
        let o = run_with(
            &program([exe.as_os_str(), "read".as_ref(), data.as_os_str()]),
            &input(b""),
            &default_limits(),
            containment,
        )
        .unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        assert_eq!(o.stdout, b"ok secret sauce\n", "{containment}: {o:?}");
    }
    std::fs::remove_dir_all(&private).unwrap();
}

#[test]
#[cfg_attr(
    not(as_root),
    ignore = "needs root: only then does the program get a user of its own"
)]
fn as_root_the_program_is_a_box_user_without_privileges() {
    assert!(
        is_root(),
        "built as root (cfg as_root) but not running as root: rebuild"
    );
    for containment in available_containments() {
        let line = probe_says(containment, &["ids"]);
        let uid: u32 = line
            .split("uid=")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(uid >= 60_000, "{containment}: {line}");
        assert!(
            line.contains(&format!("gid={uid} groups=0")),
            "{containment}: {line}"
        );
        assert!(
            line.contains("CapEff:\t0000000000000000"),
            "{containment}: {line}"
        );
        assert!(line.contains("NoNewPrivs:\t1"), "{containment}: {line}");
        for attempt in ["mount", "chattr"] {
            let line = probe_says(containment, &[attempt]);
            assert!(refused(&line), "{containment} {attempt}: {line}");
        }
    }
}

#[test]
#[cfg_attr(
    not(as_root),
    ignore = "needs root: cgroups are only writable by root here"
)]
fn as_root_the_program_cannot_touch_its_cgroup() {
    assert!(
        is_root(),
        "built as root (cfg as_root) but not running as root: rebuild"
    );
    let script = "for c in $(cut -d: -f3 /proc/self/cgroup | sort -u); do \
                  for d in /sys/fs/cgroup/*$c /sys/fs/cgroup/unified$c; do \
                  [ -e $d/cgroup.procs ] && echo 0 > $d/cgroup.procs 2>/dev/null && echo WROTE $d; \
                  [ -e $d/memory.limit_in_bytes ] && echo -1 > $d/memory.limit_in_bytes 2>/dev/null && echo WROTE $d; \
                  done; done; echo done";
    for containment in available_containments() {
        let o = run_with(&sh(script), &input(b""), &default_limits(), containment).unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(!out.contains("WROTE"), "{containment}: {out}");
        assert!(out.contains("done"), "{containment}: {out}");
    }
}

#[test]
fn stdin_can_be_a_large_byte_stream_the_program_never_reads() {
    let big = vec![b'7'; 3 << 20];
    let exe = probe();
    let program = program([exe.as_os_str(), "ids".as_ref()]);
    for containment in available_containments() {
        let limits = default_limits();
        let spec = Spec::new(&program, &limits).stdin(Stdin::Bytes(big.clone()));
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
    }
}

/// `program` with `mark` as an extra (ignored) argument, to find its processes in /proc.
fn program_with_marker(program: &Program, mark: &str) -> Program {
    let mut argv = program.argv.clone();
    argv.push(mark.into());
    Program::new(argv)
}
