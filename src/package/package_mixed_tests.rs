//! Whole packages as people get them wrong or mix them: a contest folder, located errors in
//! `problem.yaml`, bad validator arguments, the legacy validator folder under a new version,
//! DOMjudge's legacy multi-pass examples, links between a package's programs.

use super::tests::{hello, load, modern};
use super::*;
use crate::checking::default_validator::OptionsError;
use crate::package::test_support::write;

#[test]
fn a_contest_folder_loads_every_package_and_skips_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    hello(&dir.path().join("hello"));
    modern(&dir.path().join("a_plus_b"));
    write(dir.path(), &[("logos/logo.png", ""), ("contest.yaml", "")]);
    let names: Vec<_> = load(dir.path())
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["a_plus_b", "hello"]);
    assert_eq!(find::find(dir.path()).unwrap().skipped.len(), 1);
}

#[test]
fn problem_yaml_errors_are_located_for_people() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("broken");
    hello(&root);
    std::fs::write(
        root.join("problem.yaml"),
        "name: Broken\nsource: Kattis\nlimits:\n  memory: 256\n  time_multiplier: fast\n",
    )
    .unwrap();
    let error = load(&root).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "{}:5:20: limits.time_multiplier must be a number from 1 to 100, found \"fast\"",
            root.join("problem.yaml").display()
        )
    );
    std::fs::write(root.join("problem.yaml"), "name: Fine\ntimelimit: 3\n").unwrap();
    let p = load_package(&root).unwrap();
    assert_eq!(
        p.warnings[0].to_string(),
        format!(
            "{}:2:1: unknown key `timelimit`",
            root.join("problem.yaml").display()
        )
    );
}

#[test]
fn bad_default_validator_arguments_name_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("args");
    hello(&root);
    write(
        &root,
        &[(
            "data/secret/testdata.yaml",
            "output_validator_flags: float_tolerance\n",
        )],
    );
    let p = load_package(&root).unwrap();
    let secret = p
        .data
        .cases
        .iter()
        .find(|c| c.id == "secret/hello")
        .unwrap();
    assert_eq!(
        p.default_validator_options(secret),
        Some(Err(CaseArgsError {
            case: "secret/hello".into(),
            error: OptionsError::NoValue("float_tolerance".into())
        }))
    );
    assert_eq!(
        p.default_validator_options(secret)
            .unwrap()
            .unwrap_err()
            .to_string(),
        "output validator arguments of secret/hello: float_tolerance needs a value"
    );
}

#[test]
fn new_versions_read_the_legacy_validator_folder_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("old_layout");
    write(
        &root,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: x\n",
            ),
            ("data/secret/1.in", ""),
            ("data/secret/1.ans", ""),
            ("input_validators/v.py", ""),
            ("output_validators/check/check.py", ""),
            ("submissions/accepted/a.py", ""),
        ],
    );
    let p = load_package(&root).unwrap();
    assert!(
        matches!(&p.output_validator, OutputValidator::Custom(list) if list[0].name == "check")
    );
    assert!(
        (p.warnings.iter()).any(|w| w.message.contains("names this folder output_validator")),
        "{:?}",
        p.warnings
    );
    write(&root, &[("output_validator/check.py", "")]);
    let p = load_package(&root).unwrap();
    assert!(
        matches!(&p.output_validator, OutputValidator::Custom(list) if list[0].name == "output_validator")
    );
}

/// DOMjudge's `jumble` and `hangman` examples: legacy, `validation: custom multi-pass`, the
/// validator in the new versions' `output_validator/`, the time limit in `.timelimit`.
#[test]
fn domjudges_legacy_multi_pass_examples_load() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("jumble");
    write(
        &root,
        &[
            (
                "problem.yaml",
                "name: Jumble words\nvalidation: custom multi-pass\nlimits:\n  validation_passes: 2\n",
            ),
            (".timelimit", "5\n"),
            ("data/sample/1.in", "abc\n"),
            ("data/sample/1.ans", "abc\n"),
            ("output_validator/validator.py", "#!/usr/bin/env python3\n"),
            ("generators/create_testcase.py", ""),
            ("submissions/accepted/a.py", ""),
        ],
    );
    let p = load_package(&root).unwrap();
    assert!(p.metadata.problem_type.multi_pass);
    assert_eq!(
        p.metadata.limits.time_limit,
        Some(std::time::Duration::from_secs(5))
    );
    assert_eq!(p.metadata.limits.time_limit_file, ".timelimit");
    assert!(
        matches!(&p.output_validator, OutputValidator::Custom(list) if list[0].name == "output_validator")
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.file.ends_with("output_validator")
                && w.message
                    .contains("the legacy format names this folder output_validators/")),
        "{:?}",
        p.warnings
    );
    // The legacy folder, when there, is the one read.
    write(&root, &[("output_validators/check/check.py", "")]);
    let p = load_package(&root).unwrap();
    assert!(
        matches!(&p.output_validator, OutputValidator::Custom(list) if list[0].name == "check")
    );
}

#[cfg(unix)]
#[test]
fn program_links_are_followed_inside_the_package_only() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("linked");
    hello(&root);
    write(&root, &[("include/shared.h", "")]);
    std::fs::create_dir_all(root.join("submissions/accepted/multi")).unwrap();
    write(&root, &[("submissions/accepted/multi/main.cpp", "")]);
    symlink(
        "../../../include/shared.h",
        root.join("submissions/accepted/multi/shared.h"),
    )
    .unwrap();
    let p = load_package(&root).unwrap();
    let multi = p
        .submissions
        .iter()
        .find(|s| s.id == "accepted/multi")
        .unwrap();
    assert_eq!(
        multi.program.files.len(),
        2,
        "the linked header is part of the program"
    );

    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), &[("secret.py", "")]);
    symlink(
        outside.path().join("secret.py"),
        root.join("submissions/accepted/stolen.py"),
    )
    .unwrap();
    let error = load_package(&root).unwrap_err();
    assert!(
        error.to_string().contains("links outside the package"),
        "{error}"
    );
    assert!(error.file.ends_with("submissions/accepted/stolen.py"));

    // Links are relative: an absolute one is refused even when it leads inside.
    std::fs::remove_file(root.join("submissions/accepted/stolen.py")).unwrap();
    symlink(root.join("include/shared.h"), root.join("include/again.h")).unwrap();
    write(&root, &[("submissions/accepted/again/main.cpp", "")]);
    symlink(
        "../../../include/again.h",
        root.join("submissions/accepted/again/a.h"),
    )
    .unwrap();
    let error = load_package(&root).unwrap_err();
    assert!(
        error.message.starts_with("an absolute link (to "),
        "{error}"
    );
    assert!(
        error.file.ends_with("include/again.h"),
        "the link at fault: {error}"
    );
}
