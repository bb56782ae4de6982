//! `grundy add PROBLEM CASE`: input from stdin or `--input`, expected output from the solver or
//! `--expect`; never overwrites, never writes outside the problem folder, then `check` passes.

use crate::common;

use std::path::Path;

use common::*;

#[test]
fn add_reads_stdin_and_takes_the_expected_output_from_the_solver() {
    let project = Project::new();
    let (input, expected) = powers_case(&[1, 2, 3, 1000]);
    let output = project
        .command(&["add", "powers-of-two", "added/from-stdin"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        project.read("fixtures/powers-of-two/added/from-stdin.in"),
        input
    );
    assert_eq!(
        project.read("fixtures/powers-of-two/added/from-stdin.out"),
        expected
    );
    let report = stdout(&output);
    assert!(report.contains("from-stdin.in"), "{report}");
    assert!(report.contains("from-stdin.out"), "{report}");

    let output = project.grundy(&["check", "powers-of-two/added/from-stdin"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "1 passed, 0 failed");
}

#[test]
fn add_reads_input_and_expected_output_from_files() {
    let project = Project::new();
    project.file("drafts/case.txt", "1 2\n3\n");
    // A deliberately different answer: proof that --expect is used as given, not recomputed.
    project.file("drafts/answer.txt", "Kevin\n");
    let output = project
        .command(&[
            "add",
            "lieges-of-legendre",
            "by-hand",
            "--input",
            "drafts/case.txt",
            "--expect",
            "drafts/answer.txt",
        ])
        .write_stdin("stdin must be ignored\n")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        project.read("fixtures/lieges-of-legendre/by-hand.in"),
        "1 2\n3\n"
    );
    assert_eq!(
        project.read("fixtures/lieges-of-legendre/by-hand.out"),
        "Kevin\n"
    );
    // The solver says Nicky, so the new case fails: the file was not second-guessed.
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));

    // --input with the solver's answer.
    let output = project.grundy(&[
        "add",
        "lieges-of-legendre",
        "from-file",
        "--input",
        "drafts/case.txt",
    ]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        project.read("fixtures/lieges-of-legendre/from-file.out"),
        "Nicky\n"
    );
    let output = project.grundy(&["check", "lieges-of-legendre/from-file"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
}

#[test]
fn add_refuses_to_overwrite_an_existing_case_and_leaves_it_untouched() {
    let project = Project::new();
    project.case("powers-of-two/taken", "1\n", "Kiki\n");
    project.file("fixtures/powers-of-two/kattis.in", "2\n");
    project.file("fixtures/powers-of-two/kattis.ans", "Kiki\n");
    project.file("fixtures/powers-of-two/input-only.in", "3\n");
    let taken = project.path().join("fixtures/powers-of-two/taken.out");
    let taken_time = age(&taken);
    let before = tree(&project.path().join("fixtures"));

    for case in ["taken", "kattis", "input-only"] {
        let output = project
            .command(&["add", "powers-of-two", case])
            .write_stdin("6\n")
            .output()
            .unwrap();
        assert_eq!(code(&output), 2, "{case}\n{}", dump(&output));
        assert!(stderr(&output).contains(case), "{case}\n{}", dump(&output));
    }
    assert_eq!(tree(&project.path().join("fixtures")), before);
    assert_eq!(project.read("fixtures/powers-of-two/taken.in"), "1\n");
    assert_eq!(project.read("fixtures/powers-of-two/taken.out"), "Kiki\n");
    assert_eq!(project.read("fixtures/powers-of-two/kattis.ans"), "Kiki\n");
    assert_eq!(modified(&taken), taken_time);
}

#[test]
fn add_refuses_paths_that_leave_the_problem_folder() {
    let project = Project::new();
    for case in [
        "../escape",
        "group/../../escape",
        "/tmp/grundy-absolute-case",
        "sub/",
    ] {
        let output = project
            .command(&["add", "powers-of-two", case])
            .write_stdin("1\n")
            .output()
            .unwrap();
        assert_eq!(code(&output), 2, "{case}\n{}", dump(&output));
    }
    assert!(
        tree(project.path()).is_empty(),
        "{:?}",
        tree(project.path())
    );
    assert!(!Path::new("/tmp/grundy-absolute-case.in").exists());
}

#[test]
fn add_writes_nothing_when_the_solver_rejects_the_input() {
    let project = Project::new();
    let output = project
        .command(&["add", "powers-of-two", "bad"])
        .write_stdin("1\nseven\n")
        .output()
        .unwrap();
    assert_ne!(code(&output), 0, "{}", dump(&output));
    assert!(
        stderr(&output).contains("line 2, column 1"),
        "{}",
        dump(&output)
    );
    assert!(
        tree(project.path()).is_empty(),
        "{:?}",
        tree(project.path())
    );
}

#[test]
fn add_refuses_an_unknown_problem_without_expect() {
    let project = Project::new();
    let output = project
        .command(&["add", "power-of-two", "a"])
        .write_stdin("1\n")
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("powers-of-two"),
        "suggests the right id\n{}",
        dump(&output)
    );
    assert!(
        tree(project.path()).is_empty(),
        "{:?}",
        tree(project.path())
    );
}

#[test]
fn add_does_not_write_through_a_symlink_out_of_the_fixtures_root() {
    let project = Project::new();
    std::fs::create_dir_all(project.path().join("elsewhere/group")).unwrap();
    std::os::unix::fs::symlink(
        project.path().join("elsewhere"),
        project.path().join("fixtures/powers-of-two"),
    )
    .unwrap();
    std::fs::create_dir_all(project.path().join("fixtures/lieges-of-legendre")).unwrap();
    std::os::unix::fs::symlink(
        project.path().join("elsewhere/group"),
        project.path().join("fixtures/lieges-of-legendre/linked"),
    )
    .unwrap();

    for (problem, case, input) in [
        ("powers-of-two", "escaped", "1\n"),
        ("powers-of-two", "group/escaped", "1\n"),
        ("lieges-of-legendre", "linked/escaped", "1 2\n3\n"),
    ] {
        let output = project
            .command(&["add", problem, case])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(code(&output), 2, "{problem} {case}\n{}", dump(&output));
        assert!(stderr(&output).contains("link"), "{}", dump(&output));
    }
    assert!(
        tree(&project.path().join("elsewhere")).is_empty(),
        "{:?}",
        tree(&project.path().join("elsewhere"))
    );
}
