//! Interactive problems through the real binary: the built-in judge of a problem against its
//! built-in player, and the first-failure rule (a crash first is RE, a silence past the limit is
//! TLE, a judge's rejection stands even if the program then crashes, a judge that fails is JE),
//! with the last lines of the exchange under each failure.

mod common;

use common::*;

/// `test-guess` cases, one per mode of its built-in player and judge (see problems/test_problems.rs).
fn project(modes: &[&str]) -> Project {
    let project = Project::new();
    for mode in modes {
        project.case(
            &format!("test-guess/{mode}"),
            &format!("37 {mode}\n"),
            "guessed\n",
        );
    }
    project
}

#[test]
fn the_side_that_failed_first_decides() {
    let modes = [
        ("play", "AC"),
        ("silent", "TLE"),
        ("wrong", "WA"),
        ("crash", "RE"),
        ("quit", "WA"),
        ("late-crash", "WA"),
        ("judge-panic", "JE"),
        ("judge-error", "JE"),
    ];
    let names: Vec<&str> = modes.iter().map(|(m, _)| *m).collect();
    let project = project(&names);
    let output = project.grundy(&["check", "-v", "--time-limit", "500"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    for (mode, verdict) in modes {
        let id = format!("test-guess/{mode}");
        assert_eq!(
            verdict_of(&output, &id),
            verdict,
            "{mode}\n{}",
            dump(&output)
        );
    }
    let crash = case_block(&output, "test-guess/crash");
    assert!(crash.contains("the player was asked to crash"), "{crash}");
    let late = case_block(&output, "test-guess/late-crash");
    assert!(late.contains("seven guesses, none right"), "{late}");
    let judge = case_block(&output, "test-guess/judge-panic");
    assert!(judge.contains("not the program"), "{judge}");
}

#[test]
fn a_failed_case_shows_the_last_lines_of_the_exchange_both_ways() {
    let project = project(&["wrong"]);
    let output = project.grundy(&["check"]);
    let block = case_block(&output, "test-guess/wrong");
    assert!(
        block.contains("exchange (> to the program, < from it):"),
        "{block}"
    );
    assert!(
        block.contains("| > wrong") && block.contains("| < 0") && block.contains("| > <"),
        "{block}"
    );
    let shown = block
        .lines()
        .filter(|l| l.trim_start().starts_with("| "))
        .count();
    assert!(shown <= 21, "bounded: {shown} lines\n{block}");

    let json = project.grundy(&["check", "--format", "json"]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&json).lines().next().unwrap()).unwrap();
    assert!(
        first["exchange"].as_str().unwrap().contains("< 0\n"),
        "{first}"
    );
}

#[test]
fn bless_explains_that_it_writes_nothing_for_interactive_problems() {
    let project = project(&["play"]);
    std::fs::remove_file(project.path().join("fixtures/test-guess/play.out")).unwrap();
    let output = project.grundy(&["check", "--bless"]);
    assert!(
        stderr(&output).contains("--bless writes nothing for interactive problems"),
        "{}",
        dump(&output)
    );
    assert!(!project.path().join("fixtures/test-guess/play.out").exists());
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "NOEXP",
        "{}",
        dump(&output)
    );
}
