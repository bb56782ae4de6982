//! `grundy validate` and the `invalid/` groups: fixture inputs are checked against the exact
//! constraints (extended ones below `extended/`), deliberately invalid inputs must be rejected,
//! and `check` passes them only when the solver rejects them with the recorded message.

use crate::common;

use std::path::PathBuf;

use common::*;

/// The repository's own fixtures.
fn shipped_fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// One malformed input per constraint, as (problem, input, the validator's message under the
/// original limits).
const CORPUS: &[(&str, &str, &str)] = &[
    ("nim", "", "line 1, column 1: expected at least one position (a line of heap sizes), found end of input"),
    ("nim", "1 2\n3 1000000000000000001\n", "line 2, column 3: heap size 1000000000000000001 is above the limit 1000000000000000000"),
    ("nim", "1\n 2 x\n", "line 2, column 4: expected heap size (a non-negative integer), found `x`"),
    ("set-nim", "0\n1\n1\n", "line 1, column 1: k 0 is below the minimum 1"),
    ("set-nim", "101\n", "line 1, column 1: k 101 is above the limit 100"),
    ("set-nim", "2\n2 0\n1\n1\n", "line 2, column 3: take 0 is below the minimum 1"),
    ("set-nim", "2\n10001 5\n1\n1\n", "line 2, column 1: take 10001 is above the limit 10000"),
    ("set-nim", "3\n2 5 2\n1\n1\n", "line 2, column 5: take 2 appears twice in S (first at line 2, column 1); the takes must be distinct"),
    ("set-nim", "2\n2 5\n0\n", "line 3, column 1: n 0 is below the minimum 1"),
    ("set-nim", "2\n2 5\n101\n", "line 3, column 1: n 101 is above the limit 100"),
    ("set-nim", "2\n2 5\n3\n2 0 7\n", "line 4, column 3: heap size 0 is below the minimum 1"),
    ("set-nim", "2\n2 5\n3\n2 4 10001\n", "line 4, column 5: heap size 10001 is above the limit 10000"),
    ("set-nim", "2\n2 5\n3\n2 4\n", "line 5, column 1: expected heap size (a non-negative integer), found end of input"),
    ("set-nim", "2\n2 5\n3\n2 4 7\n8\n", "line 5, column 1: unexpected `8` after the end of the input"),
    ("s-nim", "101 1\n", "line 1, column 1: k 101 is above the limit 100"),
    ("s-nim", "2 0 5\n", "line 1, column 3: take 0 is below the minimum 1"),
    ("s-nim", "2 2 10001\n", "line 1, column 5: take 10001 is above the limit 10000"),
    ("s-nim", "1 1\n0\n", "line 2, column 1: m 0 is below the minimum 1"),
    ("s-nim", "1 1\n101\n", "line 2, column 1: m 101 is above the limit 100"),
    ("s-nim", "1 1\n1\n0\n0\n", "line 3, column 1: l 0 is below the minimum 1"),
    ("s-nim", "1 1\n1\n101 1\n0\n", "line 3, column 1: l 101 is above the limit 100"),
    ("s-nim", "1 1\n1\n2 3 10001\n0\n", "line 3, column 5: heap size 10001 is above the limit 10000"),
    ("s-nim", "1 1\n1\n1 0\n", "line 4, column 1: the input ends without the terminating line `0`"),
    ("s-nim", "1 1\n1\n1 1\n0\n1 1\n", "line 5, column 1: unexpected `1` after the end of the input"),
    ("powers-of-two", " \n", "line 2, column 1: the input holds no n; at least one is required"),
    ("powers-of-two", "5\n  0\n", "line 2, column 3: n 0 is below the minimum 1"),
    ("powers-of-two", "5\n1001\n", "line 2, column 1: n 1001 is above the limit 1000"),
    ("powers-of-two", "12\n3a\n", "line 2, column 1: expected n (a non-negative integer), found `3a`"),
    ("lieges-of-legendre", "0 1\n", "line 1, column 1: pile count n 0 is below the minimum 1"),
    ("lieges-of-legendre", "100001 2\n", "line 1, column 1: pile count n 100001 is above the limit 100000"),
    ("lieges-of-legendre", "1 0\n5\n", "line 1, column 3: k 0 is below the minimum 1"),
    ("lieges-of-legendre", "1 1000000001\n5\n", "line 1, column 3: k 1000000001 is above the limit 1000000000"),
    ("lieges-of-legendre", "3 2\n0 2 1\n", "line 2, column 1: pile size 0 is below the minimum 1"),
    ("lieges-of-legendre", "3 2\n1 2 1000000001\n", "line 2, column 5: pile size 1000000001 is above the limit 1000000000"),
    ("lieges-of-legendre", "3 1\n4 5\n", "line 3, column 1: the input ends after 2 of the n = 3 pile sizes"),
    ("lieges-of-legendre", "2 1\n4 5 6\n", "line 2, column 5: unexpected `6` after the last of the n = 2 pile sizes"),
];

#[test]
fn every_constraint_is_enforced_with_line_and_column() {
    let project = Project::new();
    for (i, (problem, input, _)) in CORPUS.iter().enumerate() {
        project.file(&format!("fixtures/{problem}/bad-{i:02}.in"), input);
    }
    let output = project.grundy(&["validate"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let report = stdout(&output);
    for (i, (problem, input, message)) in CORPUS.iter().enumerate() {
        let line = format!("fixtures/{problem}/bad-{i:02}.in: {message}");
        assert!(
            report.lines().any(|l| l == line),
            "{input:?} should give\n{line}\n{}",
            dump(&output)
        );
    }
    assert!(
        closing_line(&output).ends_with(&format!("0 passed, {} failed", CORPUS.len())),
        "{}",
        dump(&output)
    );
}

#[test]
fn valid_inputs_pass_and_extended_groups_use_the_extended_limits() {
    let project = Project::new();
    project.file("fixtures/nim/sample-1.in", "1 2 3\n");
    project.file("fixtures/nim/extended/huge.in", "18446744073709551615 1\n");
    project.file(
        "fixtures/nim/deep/extended/huge.in",
        "18446744073709551615 1\n",
    );
    project.file(
        "fixtures/set-nim/extended/big.in",
        "3\n1 3 4\n1\n1000000000000000000\n",
    );
    project.file("fixtures/lieges-of-legendre/sample-1.in", "2 1\n3 4\n");
    let output = project.grundy(&["validate", "-v"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let report = stdout(&output);
    assert!(
        report.contains("ok    fixtures/nim/extended/huge.in (extended limits)"),
        "{report}"
    );
    assert!(
        report.contains("ok    fixtures/nim/sample-1.in (original limits)"),
        "{report}"
    );
    assert_eq!(closing_line(&output), "5 passed, 0 failed");

    // The same input outside an extended group breaks the original limits.
    project.file("fixtures/nim/huge.in", "18446744073709551615 1\n");
    let output = project.grundy(&["validate", "nim"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stdout(&output).contains(
            "fixtures/nim/huge.in: line 1, column 1: heap size 18446744073709551615 is above the \
             limit 1000000000000000000"
        ),
        "{}",
        dump(&output)
    );
    assert_eq!(closing_line(&output), "3 passed, 1 failed");
}

#[test]
fn inputs_of_invalid_groups_must_be_rejected() {
    let project = Project::new();
    project.file("fixtures/nim/invalid/letter.in", "1 x\n");
    project.file(
        "fixtures/nim/invalid/letter.err",
        "line 1, column 3: whatever\n",
    );
    project.file("fixtures/nim/invalid/fine.in", "1 2\n");
    project.file("fixtures/nim/invalid/fine.err", "line 1, column 1: no\n");
    let output = project.grundy(&["validate"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stdout(&output).contains(
            "fixtures/nim/invalid/fine.in: valid under the original limits, but inputs in an \
             `invalid/` group must break the format or the limits"
        ),
        "{}",
        dump(&output)
    );
    assert!(!stdout(&output).contains("letter.in"), "{}", dump(&output));
    assert!(stdout(&output).contains("Validated 2 inputs (2 deliberately invalid)."));
}

#[test]
fn layout_errors_and_nothing_to_validate_exit_2() {
    let project = Project::new();
    let output = project.grundy(&["validate"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("no input to validate"),
        "{}",
        dump(&output)
    );
    project.file("fixtures/nim/a.in", "1\n");
    for args in [&["validate", "nim/nothing-*"][..], &["validate", "../etc"]] {
        let output = project.grundy(args);
        assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
    }
    project.file("fixtures/nim/a.err", "line 1, column 1: x\n");
    let output = project.grundy(&["validate"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("a.err"), "{}", dump(&output));
    project.file("fixtures/no-solver/a.in", "1\n");
    let output = project.grundy(&["validate", "no-solver"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
}

#[test]
fn check_passes_an_invalid_input_only_when_rejected_with_the_recorded_message() {
    let project = Project::new();
    let message = "line 2, column 3: expected heap size (a non-negative integer), found `x`";
    project.file("fixtures/nim/invalid/right.in", "1 2\n3 x\n");
    project.file("fixtures/nim/invalid/right.err", format!("{message}\n"));
    project.file("fixtures/nim/invalid/accepted.in", "1 2\n");
    project.file("fixtures/nim/invalid/accepted.err", format!("{message}\n"));
    project.file("fixtures/nim/invalid/other.in", "1 2\n3 y\n");
    project.file("fixtures/nim/invalid/other.err", format!("{message}\n"));
    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(verdict_of(&output, "nim/invalid/right"), "AC");
    assert_eq!(verdict_of(&output, "nim/invalid/accepted"), "WA");
    assert!(
        case_block(&output, "nim/invalid/accepted").contains("the input was accepted"),
        "{}",
        dump(&output)
    );
    assert_eq!(verdict_of(&output, "nim/invalid/other"), "WA");
    let other = case_block(&output, "nim/invalid/other");
    assert!(
        other.contains(message) && other.contains("found `y`"),
        "both messages are shown\n{other}"
    );
    assert_eq!(closing_line(&output), "1 passed, 2 failed");
}

#[test]
fn bless_writes_the_solvers_message_as_the_err_file() {
    let project = Project::new();
    project.file("fixtures/powers-of-two/invalid/zero.in", "3\n0\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(stdout(&output).contains("zero.err"), "{}", dump(&output));
    let output = project.grundy(&["check", "--bless"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        project.read("fixtures/powers-of-two/invalid/zero.err"),
        "line 2, column 1: n 0 is below the minimum 1\n"
    );
    assert!(!project
        .path()
        .join("fixtures/powers-of-two/invalid/zero.out")
        .exists());
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
}

#[test]
fn the_shipped_fixtures_are_valid_and_their_invalid_groups_pass_check() {
    let fixtures = shipped_fixtures();
    let fixtures = fixtures.to_str().unwrap();
    let project = Project::new();
    let output = project.grundy(&["validate", "--fixtures", fixtures]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let groups = [
        "lieges-of-legendre/invalid",
        "nim/invalid",
        "powers-of-two/invalid",
        "s-nim/invalid",
        "set-nim/invalid",
    ];
    let mut args = vec!["check", "--fixtures", fixtures];
    args.extend(groups);
    let output = project.grundy(&args);
    assert_eq!(code(&output), 0, "{}", dump(&output));
}
