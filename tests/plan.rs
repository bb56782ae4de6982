//! One plan, through the real binary: a Kattis package in the fixtures root is the same problem
//! to `check`, `list` and `verify`: it is read once, and its cases are judged as `verify` judges
//! them, by the checker their group's flags make.

use crate::common;

use std::mem::MaybeUninit;
use std::path::Path;

use common::{closing_line, code, dump, stdout, verdict_of, Project};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};

/// What `quotient.py` prints: the quotient of the two numbers of its input, to 9 decimals.
const QUOTIENT: &str = "a, b = map(int, input().split())\nprint(f'{a / b:.9f}')\n";

/// A 2023-07 package `mixed` in the fixtures root judged by the default output validator: the
/// group `secret/exact` with no flags (tokens as written), `secret/loose` with a float tolerance
/// of 1e-3; `quotient.py` its accepted submission.
fn mixed(project: &Project) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Mixed\nlimits:\n  time_limit: 2\n",
        ),
        // 1/3 to 9 decimals is the answer as written.
        ("data/secret/exact/1.in", "1 3\n"),
        ("data/secret/exact/1.ans", "0.333333333\n"),
        // 2/3 to 9 decimals is 0.666666667: within 1e-3, but not the answer as written.
        ("data/secret/exact/2.in", "2 3\n"),
        ("data/secret/exact/2.ans", "0.666666666\n"),
        (
            "data/secret/loose/test_group.yaml",
            "output_validator_args: [float_tolerance, 1e-3]\n",
        ),
        // 22/7 to 9 decimals is 3.142857143: within 1e-3 of the answer.
        ("data/secret/loose/1.in", "22 7\n"),
        ("data/secret/loose/1.ans", "3.142857142857\n"),
        ("submissions/accepted/quotient.py", QUOTIENT),
    ];
    for (path, text) in files {
        project.file(&format!("fixtures/mixed/{path}"), text);
    }
}

#[test]
fn check_judges_each_group_of_a_package_by_its_own_flags_as_verify_does() {
    let project = Project::new();
    mixed(&project);
    let program = project.file("quotient.py", QUOTIENT);
    let program = program.display().to_string();
    let checked = project.grundy(&["check", "mixed", "-v", "--exec", &program]);
    assert_eq!(code(&checked), 1, "{}", dump(&checked));
    assert_eq!(
        closing_line(&checked),
        "2 passed, 1 failed",
        "{}",
        dump(&checked)
    );
    assert_eq!(verdict_of(&checked, "mixed/secret/exact/1"), "AC");
    assert_eq!(verdict_of(&checked, "mixed/secret/exact/2"), "WA");
    assert_eq!(verdict_of(&checked, "mixed/secret/loose/1"), "AC");
    // `list` says the flags differ by group.
    let listed = project.grundy(&["list", "mixed"]);
    assert_eq!(code(&listed), 0, "{}", dump(&listed));
    assert!(
        stdout(&listed).contains("kattis-default, flags per group"),
        "{}",
        dump(&listed)
    );
}

/// How often `file` was opened while `run` ran (inotify's IN_OPEN; every open is followed by
/// its close, so no two opens are one event).
fn opens_of(file: &Path, run: impl FnOnce()) -> usize {
    let watch = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).unwrap();
    inotify::add_watch(&watch, file, WatchFlags::OPEN | WatchFlags::CLOSE_NOWRITE).unwrap();
    run();
    let mut buffer = [MaybeUninit::<u8>::uninit(); 1 << 16];
    let mut events = inotify::Reader::new(&watch, &mut buffer);
    let mut opens = 0;
    while let Ok(event) = events.next() {
        opens += usize::from(event.events().contains(ReadFlags::OPEN));
    }
    opens
}

#[test]
fn check_and_list_read_a_package_once() {
    let project = Project::new();
    mixed(&project);
    let program = project.file("quotient.py", QUOTIENT);
    let program = program.display().to_string();
    let package = project.path().join("fixtures/mixed");
    for args in [
        &["check", "mixed", "--exec", &program][..],
        &["list", "mixed"],
        &["list", "--cases"],
        &["validate", "mixed"],
    ] {
        // (The folder `data/` itself is opened by the sandbox too, which hides it from the
        // program judged.)
        for file in ["problem.yaml", "data/secret/loose/test_group.yaml"] {
            let opens = opens_of(&package.join(file), || {
                let output = project.grundy(args);
                assert!(
                    [0, 1].contains(&code(&output)),
                    "{args:?}\n{}",
                    dump(&output)
                );
            });
            assert_eq!(opens, 1, "{args:?} opened {file} {opens} times");
        }
    }
}
