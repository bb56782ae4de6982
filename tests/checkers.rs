//! External checkers (`--checker kattis:CMD | testlib:CMD`, and in runner.toml) through the real
//! binary: every exit code of both protocols, the judge error for a checker that crashes, hangs
//! or answers with a code its protocol does not know, and no feedback folder left behind. Also a
//! built-in problem's own checker, used by default also for `--exec` programs.

use crate::common;

use common::*;

/// Two powers-of-two cases whose expected files are right, and a program that answers the first
/// right and the second wrong.
fn project() -> (Project, String) {
    let project = Project::new();
    project.case("powers-of-two/right", "1\n", "Kiki\n");
    project.case("powers-of-two/wrong", "3\n", "Cici\n");
    let program = project.file("kiki.sh", "#!/bin/sh\necho Kiki\n");
    make_executable(&program);
    (project, program.display().to_string())
}

fn make_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn check(project: &Project, program: &str, checker: &str) -> std::process::Output {
    project.grundy(&["check", "--exec", program, "--checker", checker, "-v"])
}

#[test]
fn kattis_checkers_accept_with_42_and_reject_with_43_and_their_message() {
    let (project, program) = project();
    let checker = format!("kattis:{}", judge_command("kattis-compare"));
    let output = check(&project, &program, &checker);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(verdict_of(&output, "powers-of-two/right"), "AC");
    assert_eq!(verdict_of(&output, "powers-of-two/wrong"), "WA");
    let block = case_block(&output, "powers-of-two/wrong");
    assert!(block.contains(r#"expected "Cici", got "Kiki""#), "{block}");
    assert!(
        !block.contains("@@"),
        "no diff: the checker decides\n{block}"
    );

    let checker = format!("kattis:{}", judge_command("kattis-team"));
    let output = check(&project, &program, &checker);
    let block = case_block(&output, "powers-of-two/wrong");
    assert!(block.contains("team message: look at line 1"), "{block}");
}

#[test]
fn testlib_checkers_speak_in_exit_codes_0_1_2_3_and_7() {
    let (project, program) = project();
    let run = |role: &str| {
        check(
            &project,
            &program,
            &format!("testlib:{}", judge_command(role)),
        )
    };
    let output = run("testlib-compare");
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(verdict_of(&output, "powers-of-two/wrong"), "WA");
    assert!(case_block(&output, "powers-of-two/wrong").contains("the tokens differ"));
    let output = run("testlib-pe");
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "PE",
        "{}",
        dump(&output)
    );
    assert!(case_block(&output, "powers-of-two/right").contains("wrong output format"));
    let output = run("testlib-points");
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "WA",
        "{}",
        dump(&output)
    );
    assert!(case_block(&output, "powers-of-two/right").contains("points 0.5"));
    let output = run("testlib-fail");
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "JE",
        "{}",
        dump(&output)
    );
    let block = case_block(&output, "powers-of-two/right");
    assert!(block.contains("the answer file is broken"), "{block}");
    assert!(block.contains("not the program"), "{block}");
    assert_eq!(code(&output), 1, "a judge error fails the run");
}

#[test]
fn a_checker_that_crashes_hangs_or_breaks_its_protocol_is_a_judge_error() {
    let (project, program) = project();
    project.file("runner.toml", "judge_time_limit_ms = 300\n");
    for (protocol, role, says) in [
        ("kattis", "crash", "killed by signal SIGABRT"),
        (
            "kattis",
            "hang",
            "did not finish within its time limit of 300 ms",
        ),
        (
            "kattis",
            "exit-0",
            "exited with status 0, which the kattis protocol does not know",
        ),
        (
            "testlib",
            "exit-4",
            "exited with status 4, which the testlib protocol does not know",
        ),
    ] {
        let checker = format!("{protocol}:{}", judge_command(role));
        let output = check(&project, &program, &checker);
        assert_eq!(code(&output), 1, "{role}\n{}", dump(&output));
        for case in ["powers-of-two/right", "powers-of-two/wrong"] {
            assert_eq!(verdict_of(&output, case), "JE", "{role}\n{}", dump(&output));
            let block = case_block(&output, case);
            assert!(block.contains(says), "{role}: {block}");
        }
    }
    project.file(
        "runner.toml",
        "judge_time_limit_ms = 20000
output_limit_mb = 1
",
    );
    let checker = format!("kattis:{}", judge_command("write-forever"));
    let output = check(&project, &program, &checker);
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "JE",
        "{}",
        dump(&output)
    );
    let block = case_block(&output, "powers-of-two/right");
    assert!(
        block.contains("wrote more than its output limit"),
        "{block}"
    );
}

#[test]
fn checkers_leave_no_folder_behind() {
    let (project, program) = project();
    let scratch = tempfile::tempdir().unwrap();
    let checker = format!("kattis:{}", judge_command("kattis-compare"));
    let output = project
        .command(&["check", "--exec", &program, "--checker", &checker])
        .env("TMPDIR", scratch.path())
        .output()
        .unwrap();
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let left: Vec<_> = std::fs::read_dir(scratch.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

#[test]
fn a_checker_in_runner_toml_is_found_from_its_folder_and_a_missing_one_stops_everything() {
    let (project, program) = project();
    let judge = test_judge();
    std::fs::create_dir_all(project.path().join("judges")).unwrap();
    std::fs::copy(&judge, project.path().join("judges/check")).unwrap();
    make_executable(&project.path().join("judges/check"));
    project.file(
        "config/runner.toml",
        "fixtures = \"../fixtures\"\n[problems.powers-of-two]\nchecker = \"kattis:../judges/check kattis-compare\"\n",
    );
    let output = project.grundy(&[
        "check",
        "--config",
        "config/runner.toml",
        "--exec",
        &program,
        "-v",
    ]);
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "powers-of-two/wrong"),
        "WA",
        "{}",
        dump(&output)
    );

    project.file("runner.toml", "checker = \"kattis:./no-such-checker\"\n");
    let output = project.grundy(&["check", "--exec", &program]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("runner.toml:1:11:"),
        "{}",
        dump(&output)
    );
    assert!(
        stderr(&output).contains("no-such-checker"),
        "{}",
        dump(&output)
    );
    let output = project.grundy(&["check", "--exec", &program, "--checker", "testlib:./nope"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
}

#[test]
fn a_built_in_checker_accepts_any_right_answer_also_from_a_program() {
    let project = Project::new();
    project.case("test-divisor/twelve", "12\n", "12\n");
    project.case("test-divisor/prime", "13\n", "13\n");
    // The built-in solver prints the smallest divisor, not the expected file's: still right.
    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let four = project.file("four.sh", "#!/bin/sh\necho 4\n");
    make_executable(&four);
    let output = project.grundy(&["check", "--exec", &four.display().to_string(), "-v"]);
    assert_eq!(
        verdict_of(&output, "test-divisor/twelve"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "test-divisor/prime"),
        "WA",
        "{}",
        dump(&output)
    );
    assert!(case_block(&output, "test-divisor/prime").contains("4 is not a divisor of 13"));
    // A checker named on the command line wins over the built-in one.
    let output = project.grundy(&[
        "check",
        "--exec",
        &four.display().to_string(),
        "--checker",
        "tokens",
    ]);
    assert_eq!(
        verdict_of(&output, "test-divisor/twelve"),
        "WA",
        "{}",
        dump(&output)
    );
}

#[test]
fn bless_with_a_checker_program_says_that_program_decides_what_an_answer_file_holds() {
    let project = Project::new();
    project.case("powers-of-two/wrong", "3\n", "Kiki\n");
    let checker = format!("kattis:{}", judge_command("kattis-compare"));
    let output = project.grundy(&["check", "--bless", "--checker", &checker]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stderr(&output).contains("judged by a checker program (powers-of-two)"),
        "{}",
        dump(&output)
    );
    assert_ne!(project.read("fixtures/powers-of-two/wrong.out"), "Kiki\n");
    let again = project.grundy(&["check", "--checker", &checker]);
    assert_eq!(code(&again), 0, "{}", dump(&again));
    // A comparison needs no such word.
    let plain = project.grundy(&["check", "--bless"]);
    assert!(!stderr(&plain).contains("note:"), "{}", dump(&plain));
}
