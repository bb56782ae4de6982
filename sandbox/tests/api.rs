//! The caller-facing API under every containment: stdin from a file, bytes, a caller's pipe or
//! nothing; stdout to a caller's pipe; files placed before the run and read back after it (a
//! Kattis output validator's whole protocol); extra environment; cancelling; when the
//! program ended; and what the machine guarantees.

mod common;

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::*;
use grundy_sandbox::{BoxFile, Cancel, Containment, End, SharedFile, Spec, Stdin, Stdout};

fn pipe() -> (std::fs::File, std::fs::File) {
    let mut fds = [-1; 2];
    // SAFETY: fds is a valid array of two ints for pipe2 to fill.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: both descriptors were just created and are owned by nobody else.
    unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    }
}

#[test]
fn stdin_comes_from_a_file_bytes_a_pipe_or_nowhere() {
    let program = sh("wc -c");
    let limits = default_limits();
    for containment in available_containments() {
        let file = input(&vec![b'x'; 200_000]);
        let from_file =
            Spec::new(&program, &limits).stdin(Stdin::File(std::fs::File::open(file).unwrap()));
        let from_bytes = Spec::new(&program, &limits).stdin(Stdin::Bytes(vec![b'y'; 3 << 20]));
        let from_nothing = Spec::new(&program, &limits);
        for (spec, expected) in [
            (from_file, "200000"),
            (from_bytes, "3145728"),
            (from_nothing, "0"),
        ] {
            let o = grundy_sandbox::run_with(spec, containment).unwrap();
            assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
            assert_eq!(
                String::from_utf8_lossy(&o.stdout).trim(),
                expected,
                "{containment}"
            );
        }
        // A pipe the caller feeds while the program runs (as an interactor would).
        let (reader, mut writer) = pipe();
        let feeder = std::thread::spawn(move || {
            for line in ["3\n", "4\n"] {
                writer.write_all(line.as_bytes()).unwrap();
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let adder = sh("read a; read b; echo $((a + b))");
        let spec = Spec::new(&adder, &limits).stdin(Stdin::Fd(OwnedFd::from(reader)));
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        feeder.join().unwrap();
        assert_eq!(o.stdout, b"7\n", "{containment}: {o:?}");
    }
}

#[test]
fn stdout_can_go_to_the_callers_pipe() {
    let program = sh("echo to-the-caller; echo to-stderr >&2");
    let limits = default_limits();
    for containment in available_containments() {
        let (mut reader, writer) = pipe();
        let mut spec = Spec::new(&program, &limits);
        spec.stdout = Stdout::Fd(OwnedFd::from(writer));
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        assert!(o.stdout.is_empty());
        assert_eq!(o.stderr, b"to-stderr\n");
        let mut relayed = String::new();
        reader.read_to_string(&mut relayed).unwrap();
        assert_eq!(relayed, "to-the-caller\n", "{containment}");
    }
}

/// A Kattis output validator: `validator input answer feedback_dir/ < program_output`, exit 42
/// for accepted and 43 for wrong, with a message in feedback_dir/judgemessage.txt.
const VALIDATOR: &str = r#"#!/bin/sh
expected=$(cat "$2")
got=$(cat)
[ -r "$1" ] || { echo "no input" > "$3/judgemessage.txt"; exit 1; }
if echo "x" > "$1" 2>/dev/null; then echo "input is writable" > "$3/judgemessage.txt"; exit 1; fi
if [ "$got" = "$expected" ]; then
    echo "correct: $got" > "$3/judgemessage.txt"; exit 42
else
    echo "expected $expected, got $got" > "$3/judgemessage.txt"; exit 43
fi
"#;

#[test]
fn a_kattis_output_validator_gets_its_files_and_its_message_is_read_back() {
    let validator = input(VALIDATOR.as_bytes());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&validator, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The answer comes from a host file (copied in), the input as bytes.
    let answer = input(b"42\n");
    let program = program([
        validator.as_os_str(),
        "input".as_ref(),
        "answer".as_ref(),
        "feedback_dir/".as_ref(),
    ]);
    let limits = default_limits();
    for containment in available_containments() {
        for (output, code, message) in [
            ("42\n", 42, "correct: 42"),
            ("41\n", 43, "expected 42, got 41"),
        ] {
            let mut spec = Spec::new(&program, &limits).stdin(Stdin::Bytes(output.into()));
            spec.files = vec![
                BoxFile::bytes("input", "6 7\n"),
                BoxFile::copy("answer", SharedFile::open(&answer).unwrap()),
                BoxFile::writable_dir("feedback_dir"),
            ];
            spec.collect = vec![
                PathBuf::from("feedback_dir/judgemessage.txt"),
                PathBuf::from("feedback_dir/teammessage.txt"),
            ];
            let o = grundy_sandbox::run_with(spec, containment).unwrap();
            assert_eq!(o.end, End::Exited(code), "{containment}: {o:?}");
            assert_eq!(o.collected.len(), 1, "{containment}: {o:?}");
            assert_eq!(
                o.collected[0].0,
                PathBuf::from("feedback_dir/judgemessage.txt")
            );
            assert_eq!(String::from_utf8_lossy(&o.collected[0].1).trim(), message);
        }
        // The next run of the same box starts from an empty working folder again.
        let o = run_with(
            &sh("ls -A | wc -l"),
            &input(b""),
            &default_limits(),
            containment,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            "0",
            "{containment}"
        );
    }
}

#[test]
fn files_must_stay_inside_the_working_folder() {
    let program = sh("true");
    let limits = default_limits();
    for bad in ["../escape", "/etc/passwd", ""] {
        let mut spec = Spec::new(&program, &limits);
        spec.files = vec![BoxFile::bytes(bad, "x")];
        assert!(grundy_sandbox::run(spec).is_err(), "{bad:?}");
        let mut spec = Spec::new(&program, &limits);
        spec.collect = vec![PathBuf::from(bad)];
        assert!(grundy_sandbox::run(spec).is_err(), "{bad:?}");
    }
}

#[test]
fn the_caller_adds_environment_variables() {
    let program = sh("echo \"$GRUNDY_SEED $HOME $LANG\"; env | cut -d= -f1 | sort | tr '\\n' ' '");
    let limits = default_limits();
    let env = [
        ("GRUNDY_SEED".into(), "17".into()),
        ("LANG".into(), "C".into()),
    ];
    for containment in available_containments() {
        let mut spec = Spec::new(&program, &limits);
        spec.env = &env;
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        let mut lines = out.lines();
        let first = lines.next().unwrap();
        assert!(
            first.starts_with("17 /") && first.ends_with(" C"),
            "{containment}: {out}"
        );
        // sh adds PWD itself; without a box, TMPDIR is the working folder.
        let expected = if containment == Containment::PidNamespace {
            "GRUNDY_SEED HOME LANG PATH PWD"
        } else {
            "GRUNDY_SEED HOME LANG PATH PWD TMPDIR"
        };
        assert_eq!(lines.next().unwrap().trim(), expected, "{containment}");
    }
}

#[test]
fn a_cancelled_run_ends_at_once() {
    let program = sh("sleep 30");
    let limits = limits(20_000, 256, 64);
    for containment in available_containments() {
        let cancel = Cancel::new();
        let mut spec = Spec::new(&program, &limits);
        spec.cancel = Some(cancel.clone());
        let started = Instant::now();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            cancel.cancel();
        });
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        canceller.join().unwrap();
        assert_eq!(o.end, End::Cancelled, "{containment}: {o:?}");
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{containment}: {o:?}"
        );
        // A token cancelled before the run starts ends it as soon as it starts.
        let cancel = Cancel::new();
        cancel.cancel();
        let mut spec = Spec::new(&program, &limits);
        spec.cancel = Some(cancel);
        assert_eq!(
            grundy_sandbox::run_with(spec, containment).unwrap().end,
            End::Cancelled
        );
    }
}

#[test]
fn the_outcome_says_when_the_program_ended() {
    let program = sh("sleep 0.3");
    let limits = default_limits();
    for containment in available_containments() {
        let before = Instant::now();
        let o = grundy_sandbox::run_with(Spec::new(&program, &limits), containment).unwrap();
        let after = Instant::now();
        assert!(
            before <= o.ended_at && o.ended_at <= after,
            "{containment}: {o:?}"
        );
        assert!(
            o.wall_time >= Duration::from_millis(300),
            "{containment}: {o:?}"
        );
        assert!(o.ended_at - before >= o.wall_time, "{containment}: {o:?}");
    }
}

#[test]
fn the_guarantees_report_is_consistent() {
    let best = grundy_sandbox::guarantees();
    assert_eq!(best.containment, grundy_sandbox::containment());
    assert_eq!(best.is_complete(), best.missing().is_empty());
    for containment in [
        Containment::PidNamespace,
        Containment::Cgroup,
        Containment::ProcessGroup,
    ] {
        let offered = available_containments().contains(&containment);
        let g = grundy_sandbox::guarantees_of(containment);
        assert_eq!(g.is_some(), offered, "{containment}");
        if let Some(g) = g {
            let boxed = containment == Containment::PidNamespace;
            assert_eq!(g.own_filesystem, boxed, "{containment}");
            assert_eq!(g.separate_pids, boxed, "{containment}");
            if boxed {
                assert!(g.private_files && g.signals_contained, "{containment}");
            }
            assert!(g.no_network, "{containment}");
            assert_eq!(g.unprivileged_identity, boxed || is_root(), "{containment}");
        }
    }
    let line = grundy_sandbox::describe_containment();
    assert!(line.starts_with(&best.containment.to_string()), "{line}");
}
