//! Multi-pass packages through the real binary: `grundy verify` and `grundy check --fixtures PKG
//! --exec` run the submission pass after pass, its input the `nextpass.in` the output validator
//! (or interactor) wrote, with the validator's feedback folder kept between passes.
//!
//! The problem, `double`: a pass's input is `n p` (p: the pass's number, 1 in the data), the
//! program prints 2n. The validator counts the passes in a file of its own in the feedback
//! folder and is broken (exit 1) when that count and `p` disagree, or when the last pass's
//! `nextpass.in` is still there: so a run judged at all shows that the folder was carried, that
//! `nextpass.in` was taken out and that the validator's input is the pass's. Until the pass it
//! means to be the last, it asks for another with `n + 1`.

use crate::common;

use std::process::Output;

use common::{code, dump, row, verify_json as json, Project};
use serde_json::Value;

/// What every judge of `double` does first (Python): it reads its input `n p`, counts the
/// passes in a file of its own in the feedback folder, and is broken (exit 1) when the count and
/// `p` disagree or the last pass's `nextpass.in` is still there. `done(code, why)` ends it.
const COUNTING: &str = r#"import os, sys
n, p = map(int, open(sys.argv[1]).read().split())
feedback = sys.argv[3]
def done(code, why):
    open(os.path.join(feedback, "judgemessage.txt"), "w").write(why)
    sys.exit(code)
def next_pass():
    open(os.path.join(feedback, "nextpass.in"), "w").write(f"{n + 1} {count + 1}\n")
state = os.path.join(feedback, "count")
count = int(open(state).read()) + 1 if os.path.exists(state) else 1
if count != p or os.path.exists(os.path.join(feedback, "nextpass.in")):
    done(1, f"pass {count} by the count, {p} by the input")
open(state, "w").write(str(count))
"#;

/// The output validator (Kattis protocol); `last` is the pass after which it asks for no other,
/// and `rejecting` makes it write `nextpass.in` and reject (exit 43) in pass 2.
fn validator(last: u32, rejecting: bool) -> String {
    let rejecting = if rejecting { "True" } else { "False" };
    format!(
        r#"{COUNTING}right = sys.stdin.read().split() == [str(2 * n)]
if count < {last} and (right or {rejecting}):
    next_pass()
if {rejecting} and count == 2:
    done(43, "rejected, though it asked for another pass")
if not right:
    done(43, f"expected {{2 * n}}")
done(42, f"pass {{count}} right")
"#
    )
}

const ACCEPTED: &str = "n, p = map(int, input().split())\nprint(2 * n)\n";
const WRONG_IN_PASS_2: &str = "n, p = map(int, input().split())\nprint(2 * n + (p == 2))\n";
const SLOW_IN_PASS_2: &str =
    "import time\nn, p = map(int, input().split())\nif p == 2:\n    time.sleep(30)\nprint(2 * n)\n";

/// A 2025-09 multi-pass package `double` at `at` allowing `passes` passes, its validator asking
/// for `last` of them.
fn double(project: &Project, at: &str, passes: u32, last: u32, rejecting: bool) {
    let yaml = format!(
        "problem_format_version: 2025-09\nname: Double\ntype: multi-pass\nlimits:\n  time_limit: \
         1\n  validation_passes: {passes}\n"
    );
    let validator = validator(last, rejecting);
    let files: &[(&str, &str)] = &[
        ("problem.yaml", &yaml),
        ("data/sample/1.in", "1 1\n"),
        ("data/sample/1.ans", "2\n"),
        ("data/secret/1.in", "20 1\n"),
        ("data/secret/1.ans", "40\n"),
        ("input_validators/any.py", "import sys\nsys.exit(42)\n"),
        ("output_validator/validate.py", &validator),
        ("submissions/accepted/double.py", ACCEPTED),
        (
            "submissions/wrong_answer/wrong_in_pass_2.py",
            WRONG_IN_PASS_2,
        ),
        (
            "submissions/time_limit_exceeded/slow_in_pass_2.py",
            SLOW_IN_PASS_2,
        ),
    ];
    for (path, text) in files {
        project.file(&format!("{at}/{path}"), text);
    }
}

fn verify(project: &Project, args: &[&str]) -> Output {
    let tmp = project.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut all = vec!["verify"];
    all.extend(args);
    let output = project
        .command(&all)
        .env_remove("CARGO_TARGET_DIR")
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(
        left.is_empty(),
        "left in TMPDIR: {left:?}\n{}",
        dump(&output)
    );
    output
}

/// The first case that caught `submission`: its verdict and message.
fn caught(rows: &[Value], submission: &str) -> (String, String) {
    let first = &row(rows, submission)["caught_by"][0];
    (
        first["verdict"].as_str().unwrap_or_default().to_string(),
        first["message"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn every_pass_is_judged_with_the_feedback_folder_kept_between_them() {
    let project = Project::new();
    double(&project, "double", 3, 3, false);
    let output = verify(&project, &["double", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, summary) = json(&output);
    assert_eq!(summary["packages"][0]["valid"], true, "{}", dump(&output));
    for (submission, verdict) in [
        ("accepted/double.py", "AC"),
        ("wrong_answer/wrong_in_pass_2.py", "WA"),
        ("time_limit_exceeded/slow_in_pass_2.py", "TLE"),
    ] {
        let row = row(&rows, submission);
        assert_eq!(
            (&row["verdict"], &row["ok"]),
            (&verdict.into(), &true.into()),
            "{}",
            dump(&output)
        );
    }
    let (_, message) = caught(&rows, "wrong_answer/wrong_in_pass_2.py");
    assert_eq!(message, "pass 2: expected 4", "{}", dump(&output));
    let (_, message) = caught(&rows, "time_limit_exceeded/slow_in_pass_2.py");
    assert!(message.starts_with("pass 2: "), "{message}");
}

#[test]
fn a_validator_asking_for_a_pass_too_many_or_rejecting_with_nextpass_in_is_a_judge_error() {
    let project = Project::new();
    // It asks for a third pass of two.
    double(&project, "double", 2, 3, false);
    let output = verify(&project, &["double", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let package = &summary["packages"][0];
    assert_eq!(package["valid"], false, "{}", dump(&output));
    let errors = package["errors"].to_string();
    assert!(
        errors.contains(
            "judge error on sample/1 with accepted/double.py: the judge wrote nextpass.in in pass \
             2, the last the problem allows (limits.validation_passes: 2)"
        ),
        "{errors}"
    );
    // The submission wrong in pass 2 is caught there, before any pass too many.
    assert_eq!(
        caught(&rows, "wrong_answer/wrong_in_pass_2.py").0,
        "WA",
        "{}",
        dump(&output)
    );

    double(&project, "double", 3, 3, true);
    let output = verify(&project, &["double", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (_, summary) = json(&output);
    let errors = summary["packages"][0]["errors"].to_string();
    assert!(
        errors.contains("wrote nextpass.in but exited with status 43"),
        "{errors}"
    );
}

#[test]
fn legacy_custom_multipass_validation_has_two_passes_by_default() {
    let project = Project::new();
    let validator = validator(2, false);
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "name: Double\nvalidation: custom multipass\n",
        ),
        ("data/sample/1.in", "3 1\n"),
        ("data/sample/1.ans", "6\n"),
        ("data/secret/1.in", "4 1\n"),
        ("data/secret/1.ans", "8\n"),
        (
            "input_format_validators/any.py",
            "import sys\nsys.exit(42)\n",
        ),
        ("output_validators/validate.py", &validator),
        ("submissions/accepted/double.py", ACCEPTED),
        (
            "submissions/wrong_answer/wrong_in_pass_2.py",
            WRONG_IN_PASS_2,
        ),
    ];
    verified(
        &project,
        files,
        "wrong_answer/wrong_in_pass_2.py",
        "pass 2: expected 8",
    );
}

/// Writes the package `files` as `double`, verifies it, and checks that `accepted/double.py` is
/// accepted and that `wrong` is caught with WA and `message`.
fn verified(project: &Project, files: &[(&str, &str)], wrong: &str, message: &str) {
    for (path, text) in files {
        project.file(&format!("double/{path}"), text);
    }
    let output = verify(project, &["double", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, _) = json(&output);
    assert_eq!(row(&rows, "accepted/double.py")["verdict"], "AC");
    assert_eq!(
        caught(&rows, wrong),
        ("WA".into(), message.into()),
        "{}",
        dump(&output)
    );
}

/// An interactor for `double` played over three passes: it sends `n p` and reads 2n back.
fn interactor() -> String {
    format!(
        r#"{COUNTING}print(n, p, flush=True)
if sys.stdin.readline().split() != [str(2 * n)]:
    done(43, f"expected {{2 * n}}")
if count < 3:
    next_pass()
done(42, f"pass {{count}} right")
"#
    )
}

#[test]
fn an_interactive_multi_pass_problem_plays_every_pass_against_its_interactor() {
    let project = Project::new();
    let flushed = "n, p = map(int, input().split())\nprint(2 * n{}, flush=True)\n";
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Double\ntype: [interactive, multi-pass]\n\
             limits:\n  time_limit: 1\n  validation_passes: 3\n",
        ),
        ("data/sample/1.in", "5 1\n"),
        ("data/sample/1.ans", "10\n"),
        ("data/secret/1.in", "7 1\n"),
        ("data/secret/1.ans", "14\n"),
        ("input_validators/any.py", "import sys\nsys.exit(42)\n"),
        ("output_validator/interact.py", &interactor()),
        ("submissions/accepted/double.py", &flushed.replace("{}", "")),
        (
            "submissions/wrong_answer/wrong_in_pass_3.py",
            &flushed.replace("{}", " + (p == 3)"),
        ),
    ];
    verified(
        &project,
        files,
        "wrong_answer/wrong_in_pass_3.py",
        "pass 3: expected 14",
    );
}

#[test]
fn check_judges_a_program_on_a_multi_pass_package_pass_after_pass() {
    let project = Project::new();
    double(&project, "double", 3, 3, false);
    project.file("double.py", ACCEPTED);
    project.file("wrong.py", WRONG_IN_PASS_2);
    let check = |program: &str| {
        project
            .command(&["check", "--fixtures", "double", "--exec", program])
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap()
    };
    let output = check("python3 double.py");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(common::closing_line(&output), "2 passed, 0 failed");
    let output = check("python3 wrong.py");
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let block = common::case_block(&output, "double/secret/1");
    assert!(
        block.contains("WA") && block.contains("pass 2: expected 42"),
        "{}",
        dump(&output)
    );
}
