//! `grundy check --bless`: writes the solver's output where the expected file is missing or not
//! accepted, atomically, lists every file written, and leaves everything else alone.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::*;

#[test]
fn bless_writes_missing_and_wrong_expected_files_and_leaves_correct_ones_alone() {
    let project = Project::new();
    let (missing_in, missing_out) = powers_case(&[1, 3, 6]);
    project.file("fixtures/powers-of-two/missing.in", &missing_in);
    let (wrong_in, wrong_out) = powers_case(&[2, 9]);
    project.case("powers-of-two/wrong", &wrong_in, "Kiki\nKiki\n");
    let (ans_in, ans_out) = powers_case(&[12]);
    project.file("fixtures/powers-of-two/group/kattis.in", &ans_in);
    project.file("fixtures/powers-of-two/group/kattis.ans", "Kiki\n");
    project.powers("right", &[4, 5]);
    // Accepted by the tokens checker although not byte-equal: not "different", so kept as is.
    project.case("powers-of-two/layout", "1\n3\n", "Kiki Cici\n");
    let right = project.path().join("fixtures/powers-of-two/right.out");
    let layout = project.path().join("fixtures/powers-of-two/layout.out");
    let right_time = age(&right);
    let layout_time = age(&layout);

    let output = project.grundy(&["check", "--bless"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "5 passed, 0 failed",
        "{}",
        dump(&output)
    );

    // Each file written is listed; nothing else is.
    let report = stdout(&output);
    for written in ["missing.out", "wrong.out", "kattis.ans"] {
        assert!(
            report.lines().any(|l| l.contains(written)),
            "`{written}` is listed\n{}",
            dump(&output)
        );
    }
    assert!(!report.contains("right.out"), "{}", dump(&output));
    assert!(!report.contains("layout.out"), "{}", dump(&output));

    assert_eq!(
        project.read("fixtures/powers-of-two/missing.out"),
        missing_out
    );
    assert_eq!(project.read("fixtures/powers-of-two/wrong.out"), wrong_out);
    assert_eq!(
        project.read("fixtures/powers-of-two/group/kattis.ans"),
        ans_out
    );
    assert_eq!(
        project.read("fixtures/powers-of-two/layout.out"),
        "Kiki Cici\n"
    );
    assert_eq!(
        modified(&right),
        right_time,
        "a correct file is not rewritten"
    );
    assert_eq!(
        modified(&layout),
        layout_time,
        "an accepted file is not rewritten"
    );

    // The `.ans` case keeps its one expected file, and no temporary file is left behind.
    assert_eq!(
        tree(&project.path().join("fixtures")),
        [
            "powers-of-two/group/kattis.ans",
            "powers-of-two/group/kattis.in",
            "powers-of-two/layout.in",
            "powers-of-two/layout.out",
            "powers-of-two/missing.in",
            "powers-of-two/missing.out",
            "powers-of-two/right.in",
            "powers-of-two/right.out",
            "powers-of-two/wrong.in",
            "powers-of-two/wrong.out",
        ]
    );

    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "5 passed, 0 failed",
        "{}",
        dump(&output)
    );
}

#[test]
fn bless_never_writes_the_output_of_a_failed_run() {
    let project = Project::new();
    project.file("fixtures/test-panic/crash.in", "panic\n");
    project.case("test-panic/crash-wrong", "panic please\n", "kept\n");
    project.file("fixtures/test-panic/fine.in", "echo me\n");
    project.file("fixtures/powers-of-two/malformed.in", "3\nx\n");

    let output = project.grundy(&["check", "--bless"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "1 passed, 3 failed",
        "{}",
        dump(&output)
    );
    assert!(!project
        .path()
        .join("fixtures/test-panic/crash.out")
        .exists());
    assert!(!project
        .path()
        .join("fixtures/powers-of-two/malformed.out")
        .exists());
    assert_eq!(
        project.read("fixtures/test-panic/crash-wrong.out"),
        "kept\n"
    );
    assert_eq!(project.read("fixtures/test-panic/fine.out"), "echo me\n");
}

#[test]
fn bless_with_exec_is_refused_and_writes_nothing() {
    let project = Project::new();
    project.file("fixtures/powers-of-two/missing.in", "1\n");
    project.case("powers-of-two/wrong", "3\n", "Kiki\n");

    let output = project.grundy(&["check", "--bless", "--exec", "cat"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("--exec"), "{}", dump(&output));
    assert!(!project
        .path()
        .join("fixtures/powers-of-two/missing.out")
        .exists());
    assert_eq!(project.read("fixtures/powers-of-two/wrong.out"), "Kiki\n");
}

#[test]
fn written_fixtures_get_the_usual_permissions_and_rewritten_ones_keep_theirs() {
    let project = Project::new();
    let usual = usual_new_file_mode(&project);
    let output = project
        .command(&["add", "powers-of-two", "added"])
        .write_stdin("1\n")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    for file in ["added.in", "added.out"] {
        let path = project.path().join("fixtures/powers-of-two").join(file);
        assert_eq!(
            mode(&path),
            usual,
            "{file}: {:o} instead of {usual:o}",
            mode(&path)
        );
    }

    project.file("fixtures/powers-of-two/missing.in", "2\n");
    project.case("powers-of-two/wrong", "3\n", "Kiki\n");
    let wrong = project.path().join("fixtures/powers-of-two/wrong.out");
    std::fs::set_permissions(&wrong, std::fs::Permissions::from_mode(0o640)).unwrap();
    let output = project.grundy(&["check", "--bless"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let missing = project.path().join("fixtures/powers-of-two/missing.out");
    assert_eq!(
        mode(&missing),
        usual,
        "{:o} instead of {usual:o}",
        mode(&missing)
    );
    assert_eq!(mode(&wrong), 0o640, "{:o}", mode(&wrong));
    assert_eq!(project.read("fixtures/powers-of-two/wrong.out"), "Cici\n");
}

#[test]
fn bless_lists_what_it_wrote_even_when_quiet() {
    let project = Project::new();
    project.file("fixtures/powers-of-two/missing.in", "1\n");
    project.case("powers-of-two/wrong", "3\n", "Kiki\n");
    project.powers("right", &[2]);
    let output = project.grundy(&["check", "--bless", "-q"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let report = stdout(&output);
    assert!(report.contains("missing.out"), "{}", dump(&output));
    assert!(report.contains("wrong.out"), "{}", dump(&output));
    assert!(!report.contains("right"), "{}", dump(&output));
    assert_eq!(closing_line(&output), "3 passed, 0 failed");
}

#[test]
fn bless_under_a_filter_touches_only_the_selected_cases() {
    let project = Project::new();
    project.case("powers-of-two/chosen", "3\n", "Kiki\n");
    project.case("powers-of-two/other", "3\n", "Kiki\n");
    project.file("fixtures/lieges-of-legendre/other.in", "1 2\n3\n");
    let output = project.grundy(&["check", "powers-of-two/chosen", "--bless"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(project.read("fixtures/powers-of-two/chosen.out"), "Cici\n");
    assert_eq!(project.read("fixtures/powers-of-two/other.out"), "Kiki\n");
    assert!(!project
        .path()
        .join("fixtures/lieges-of-legendre/other.out")
        .exists());
}
