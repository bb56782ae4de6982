//! `grundy verify` with checktestdata input validators, through the real binary: the script runs
//! on every input (a contained `grundy checktestdata`), a rejected input is reported with its
//! place in the input and in the script, a script that does not parse makes the package invalid,
//! and a hostile script meets the interpreter's bounds (naming its line) or the package's
//! validation limits, in a box and without namespaces, never grundy's own end.

use crate::common;
use crate::exec_support;

use std::process::Output;

use common::{code, dump, stdout, Project};
use exec_support::{grundy, Launch};

/// A legacy package: two numbers on a line, their sum; a `.ctd` validator and, in a folder as the
/// legacy format allows, a second one.
fn sum(project: &Project) {
    let files: &[(&str, &str)] = &[
        ("problem.yaml", "name: Sum\n"),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/1.in", "1000 999\n"),
        ("data/secret/1.ans", "1999\n"),
        (
            "input_validators/sum.ctd",
            "# two numbers\nINT(1, 1000, a) SPACE INT(1, 1000, b)\nNEWLINE\n",
        ),
        (
            "input_format_validators/legacy/format.ctd",
            "REGEX(\"[0-9]+ [0-9]+\\n\")\n",
        ),
        (
            "submissions/accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("sum/{path}"), text);
    }
}

fn verify(project: &Project) -> Output {
    project
        .command(&["verify", "sum"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap()
}

#[test]
fn a_checktestdata_validator_accepts_good_inputs_and_locates_a_bad_one() {
    let project = Project::new();
    sum(&project);
    let output = verify(&project);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains("2 inputs and 0 invalid inputs through 2 input validator(s)"),
        "{text}"
    );
    assert!(!text.contains("not run"), "{text}");

    project.file("sum/data/secret/2.in", "7 0\n");
    project.file("sum/data/secret/2.ans", "7\n");
    let output = verify(&project);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "input secret/2 is rejected by the input validator sum.ctd: input line 1, column 3: \
             expected an integer in [1, 1000], found \"0\" (script line 2)"
        ),
        "{text}"
    );
    assert!(text.contains("package INVALID"), "{text}");
}

#[test]
fn a_script_that_does_not_parse_makes_the_package_invalid() {
    let project = Project::new();
    sum(&project);
    project.file("sum/input_validators/sum.ctd", "INT(1, 1000 a)\n");
    let output = verify(&project);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "the validator sum.ctd does not compile: script line 1, column 13: expected `)`, \
             found the variable `a`"
        ),
        "{text}"
    );
}

/// `sum` with the validator `sum.ctd` replaced by `script`.
fn sum_checked_by(project: &Project, script: &str) {
    sum(project);
    project.file("sum/input_validators/sum.ctd", script);
}

/// `verify sum` started through `launch`: the package's validation memory limit is 64 MiB, so
/// the script's values may hold 32.
fn verify_hostile(project: &Project, launch: Launch, script: &str) -> String {
    sum_checked_by(project, script);
    project.file(
        "sum/problem.yaml",
        "name: Sum\nlimits:\n  validation_memory: 64\n",
    );
    let output = grundy(project, launch, &["verify", "sum"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    // A package's validation failed: grundy neither aborted nor was killed.
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(text.contains("package INVALID"), "{text}");
    text
}

/// Each element holds a number of 41 KiB: the script asked grundy itself for 41 GB before.
const BLOW_UP: &str = "REPI(i, 1000000)\nSET(a[i] = 10^99000 + i)\nEND\n";

fn a_memory_blow_up_ends_at_the_interpreters_bound(launch: Launch) {
    let project = Project::new();
    let text = verify_hostile(&project, launch, BLOW_UP);
    assert!(
        text.contains(
            "the input validator sum.ctd is broken on sample/1: script line 2: the script's \
             values would hold more than 32 MiB, the most the interpreter lets them hold"
        ),
        "{text}"
    );
}

#[test]
fn a_memory_blow_up_ends_at_the_interpreters_bound_in_a_box() {
    a_memory_blow_up_ends_at_the_interpreters_bound(Launch::Direct);
}

#[test]
fn a_memory_blow_up_ends_at_the_interpreters_bound_without_namespaces() {
    a_memory_blow_up_ends_at_the_interpreters_bound(Launch::NoNamespaces);
}

/// Each quotient touches 5,139 × 2,544 words: about 490 of them fill the 10^8 steps (it took
/// minutes for 10^5 before).
const DIVISIONS: &str = "SET(x = 10^99000, d = 10^49000 + 1)\nREP(100000)\nSET(y = x / d)\nEND\n";

fn a_loop_of_divisions_of_huge_numbers_ends_at_the_budget(launch: Launch) {
    let project = Project::new();
    let text = verify_hostile(&project, launch, DIVISIONS);
    assert!(
        text.contains(
            "the input validator sum.ctd is broken on sample/1: script line 3: the script's work \
             exceeds its budget of 100000064 steps for this input"
        ),
        "{text}"
    );
}

#[test]
fn a_loop_of_divisions_of_huge_numbers_ends_at_the_budget_in_a_box() {
    a_loop_of_divisions_of_huge_numbers_ends_at_the_budget(Launch::Direct);
}

#[test]
fn a_loop_of_divisions_of_huge_numbers_ends_at_the_budget_without_namespaces() {
    a_loop_of_divisions_of_huge_numbers_ends_at_the_budget(Launch::NoNamespaces);
}

#[test]
fn a_script_longer_than_any_needs_is_not_read() {
    let project = Project::new();
    sum_checked_by(&project, &format!("{}\nINT(1, 2)\n", "#".repeat(1 << 20)));
    let output = verify(&project);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "sum.ctd: it is longer than 1024 KiB, which no checktestdata script needs (grundy \
             reads no more)"
        ) && text.contains("the validator sum.ctd does not compile"),
        "{text}"
    );
}
