//! `grundy check` through the real binary: verdicts, messages, diffs, robustness against broken
//! solvers, `--fail-fast` and filters.

use crate::common;

use std::time::Instant;

use common::*;

#[test]
fn all_pass_exits_zero_judging_nested_groups_and_ans_files_in_sorted_order() {
    let project = Project::new();
    // Created out of order, with names whose sorted order is not the creation order.
    project.powers("sample-2", &[2, 6]);
    project.powers("large/deep/max", &[1000, 999, 998]);
    project.powers("sample-1", &[1, 3]);
    project.powers("b-2", &[5]);
    project.powers("b/a", &[4]);
    let (input, output) = powers_case(&[7, 9]);
    project.file("fixtures/powers-of-two/kattis.in", input);
    project.file("fixtures/powers-of-two/kattis.ans", output);
    project.case("lieges-of-legendre/sample-1", "2 1\n3 4\n", "Kevin\n");
    project.case("lieges-of-legendre/sample-2", "1 2\n3\n", "Nicky\n");

    let output = project.grundy(&["check", "-v", "-j", "4"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "8 passed, 0 failed",
        "{}",
        dump(&output)
    );
    let expected = [
        "lieges-of-legendre/sample-1",
        "lieges-of-legendre/sample-2",
        "powers-of-two/b-2",
        "powers-of-two/b/a",
        "powers-of-two/kattis",
        "powers-of-two/large/deep/max",
        "powers-of-two/sample-1",
        "powers-of-two/sample-2",
    ];
    assert_eq!(reported_ids(&output), expected, "{}", dump(&output));
    for id in expected {
        assert_eq!(verdict_of(&output, id), "AC", "{}", dump(&output));
    }
}

#[test]
fn an_ans_file_is_really_compared() {
    let project = Project::new();
    project.file("fixtures/powers-of-two/kattis.in", "3\n");
    project.file("fixtures/powers-of-two/kattis.ans", "Kiki\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(verdict_of(&output, "powers-of-two/kattis"), "WA");
    assert_eq!(closing_line(&output), "0 passed, 1 failed");
}

#[test]
fn wrong_expected_file_gives_wa_with_the_first_differing_token_and_a_diff() {
    let project = Project::new();
    project.powers("a-right", &[1, 2]);
    // The answer for 3 is Cici; the file says Kiki on line 2.
    project.case("powers-of-two/b-wrong", "1\n3\n4\n", "Kiki\nKiki\nKiki\n");
    project.powers("c-right", &[6]);

    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "2 passed, 1 failed",
        "{}",
        dump(&output)
    );
    assert_eq!(verdict_of(&output, "powers-of-two/a-right"), "AC");
    assert_eq!(verdict_of(&output, "powers-of-two/c-right"), "AC");

    let block = case_block(&output, "powers-of-two/b-wrong");
    assert!(block.starts_with("FAIL WA "), "{block}");
    let message = block.lines().nth(1).unwrap_or_default();
    assert!(message.contains("token 2"), "{block}");
    assert!(message.contains("line 2"), "{block}");
    assert!(
        message.contains("`Kiki`") && message.contains("`Cici`"),
        "{block}"
    );
    // Expected side with `-`, the solver's side with `+`; unchanged lines are not marked.
    let diff_lines: Vec<&str> = block.lines().skip(2).collect();
    assert!(diff_lines.iter().any(|l| l.ends_with("-Kiki")), "{block}");
    assert!(diff_lines.iter().any(|l| l.ends_with("+Cici")), "{block}");
    assert!(!diff_lines.iter().any(|l| l.ends_with("+Kiki")), "{block}");
    assert!(!diff_lines.iter().any(|l| l.ends_with("-Cici")), "{block}");
}

#[test]
fn lines_checker_gives_pe_for_a_layout_only_difference_and_judges_the_rest() {
    let project = Project::new();
    project.case("powers-of-two/layout", "1\n3\n", "Kiki Cici\n");
    project.case(
        "powers-of-two/trailing-space",
        "1\n3\n",
        "Kiki  \nCici\r\n\n\n",
    );
    project.case("powers-of-two/wrong", "1\n3\n", "Kiki\nKiki\n");
    project.powers("right", &[3, 4]);

    let output = project.grundy(&["check", "-v", "--checker", "lines"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        verdict_of(&output, "powers-of-two/layout"),
        "PE",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "powers-of-two/trailing-space"),
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
    assert_eq!(
        verdict_of(&output, "powers-of-two/right"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(closing_line(&output), "2 passed, 2 failed");

    // The default tokens checker accepts the layout difference.
    let output = project.grundy(&["check", "powers-of-two/layout"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "1 passed, 0 failed");
}

#[test]
fn a_panicking_solver_gives_re_with_the_panic_message_and_the_run_goes_on() {
    let project = Project::new();
    project.case("test-panic/a", "hello\n", "hello\n");
    project.case("test-panic/b", "please panic now\n", "whatever\n");
    project.case("test-panic/c", "still here\n", "still here\n");
    project.case("test-panic/d", "panic again\n", "x\n");
    project.case("test-panic/e", "last\n", "last\n");

    // One worker: the cases after a panic run on the same worker.
    let output = project.grundy(&["check", "-v", "-j", "1"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "3 passed, 2 failed",
        "{}",
        dump(&output)
    );
    for (id, verdict) in [
        ("a", "AC"),
        ("b", "RE"),
        ("c", "AC"),
        ("d", "RE"),
        ("e", "AC"),
    ] {
        assert_eq!(
            verdict_of(&output, &format!("test-panic/{id}")),
            verdict,
            "{}",
            dump(&output)
        );
    }
    let block = case_block(&output, "test-panic/b");
    assert!(block.contains("the input asked for a panic"), "{block}");
    // The panic is reported in the case, not sprayed on stderr by the default hook.
    assert!(
        !stderr(&output).contains("the input asked for a panic"),
        "{}",
        dump(&output)
    );
}

#[test]
fn a_looping_solver_gives_tle_and_the_run_still_finishes() {
    let project = Project::new();
    project.case("test-loop/a", "first\n", "first\n");
    project.case("test-loop/b", "loop forever\n", "never\n");
    project.case("test-loop/c", "middle\n", "middle\n");
    project.case("test-loop/d", "loop again\n", "never\n");
    project.case("test-loop/e", "last\n", "last\n");

    let started = Instant::now();
    let output = project.grundy(&["check", "-v", "-j", "1", "--time-limit", "300"]);
    let elapsed = started.elapsed();
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(elapsed < NO_HANG, "took {elapsed:?}\n{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "3 passed, 2 failed",
        "{}",
        dump(&output)
    );
    for (id, verdict) in [
        ("a", "AC"),
        ("b", "TLE"),
        ("c", "AC"),
        ("d", "TLE"),
        ("e", "AC"),
    ] {
        assert_eq!(
            verdict_of(&output, &format!("test-loop/{id}")),
            verdict,
            "{}",
            dump(&output)
        );
    }
}

#[test]
fn malformed_input_to_a_real_solver_gives_re_naming_file_line_and_column() {
    let project = Project::new();
    project.case(
        "powers-of-two/bad-token",
        "3\n4\nfive\n",
        "Cici\nKiki\nKiki\n",
    );
    project.case("lieges-of-legendre/not-a-number", "2 1\n3 x4\n", "Kevin\n");
    project.powers("good", &[1]);

    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "1 passed, 2 failed",
        "{}",
        dump(&output)
    );
    let block = case_block(&output, "powers-of-two/bad-token");
    assert!(block.starts_with("FAIL RE "), "{block}");
    assert!(block.contains("bad-token.in"), "{block}");
    assert!(block.contains("line 3, column 1"), "{block}");
    let block = case_block(&output, "lieges-of-legendre/not-a-number");
    assert!(block.starts_with("FAIL RE "), "{block}");
    assert!(block.contains("not-a-number.in"), "{block}");
    assert!(block.contains("line 2, column 3"), "{block}");
}

#[test]
fn fail_fast_stops_starting_new_cases() {
    let project = Project::new();
    project.powers("a", &[1]);
    project.case("powers-of-two/b", "3\n", "Kiki\n");
    project.powers("c", &[2]);
    project.powers("d", &[4]);

    let output = project.grundy(&["check", "-v", "-j", "1", "--fail-fast"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "1 passed, 1 failed, 2 skipped",
        "{}",
        dump(&output)
    );
    assert_eq!(
        reported_ids(&output),
        ["powers-of-two/a", "powers-of-two/b"],
        "{}",
        dump(&output)
    );

    // Without --fail-fast every case is judged.
    let output = project.grundy(&["check", "-j", "1"]);
    assert_eq!(
        closing_line(&output),
        "3 passed, 1 failed",
        "{}",
        dump(&output)
    );
}

#[test]
fn fail_fast_with_all_passing_skips_nothing() {
    let project = Project::new();
    project.powers("a", &[1]);
    project.powers("b", &[2]);
    let output = project.grundy(&["check", "-j", "1", "--fail-fast"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "2 passed, 0 failed");
}

fn filter_project() -> Project {
    let project = Project::new();
    project.powers("sample-1", &[1, 3]);
    project.powers("sample-2", &[2]);
    project.powers("large/max", &[1000]);
    project.powers("large/deep/max-2", &[999]);
    project.powers("other", &[5]);
    project.case("lieges-of-legendre/sample-1", "2 1\n3 4\n", "Kevin\n");
    project
}

fn judged(project: &Project, filters: &[&str]) -> Vec<String> {
    let mut args = vec!["check", "-v"];
    args.extend_from_slice(filters);
    let output = project.grundy(&args);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let ids = reported_ids(&output);
    assert_eq!(
        closing_line(&output),
        format!("{} passed, 0 failed", ids.len())
    );
    ids
}

#[test]
fn filters_select_a_problem_a_glob_or_a_group() {
    let project = filter_project();
    assert_eq!(judged(&project, &[]).len(), 6);
    assert_eq!(
        judged(&project, &["lieges-of-legendre"]),
        ["lieges-of-legendre/sample-1"]
    );
    assert_eq!(
        judged(&project, &["powers-of-two"]),
        [
            "powers-of-two/large/deep/max-2",
            "powers-of-two/large/max",
            "powers-of-two/other",
            "powers-of-two/sample-1",
            "powers-of-two/sample-2",
        ]
    );
    assert_eq!(
        judged(&project, &["powers-of-two/sample-*"]),
        ["powers-of-two/sample-1", "powers-of-two/sample-2"]
    );
    assert_eq!(
        judged(&project, &["powers-of-two/large"]),
        ["powers-of-two/large/deep/max-2", "powers-of-two/large/max"]
    );
    assert_eq!(
        judged(&project, &["powers-of-two/other", "lieges-of-legendre"]),
        ["lieges-of-legendre/sample-1", "powers-of-two/other"]
    );
}

#[test]
fn a_filter_keeps_the_other_problems_out_of_the_run() {
    let project = filter_project();
    // A broken case of another problem must not be judged (nor fail the run) under a filter.
    project.case("lieges-of-legendre/broken", "2 1\n3 4\n", "Nicky\n");
    let output = project.grundy(&["check", "powers-of-two/other"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "1 passed, 0 failed");
}

#[test]
fn results_are_reported_in_sorted_order_even_when_the_first_case_finishes_last() {
    let project = Project::new();
    // `a-stuck` is taken first and finishes last (at the time limit); the rest are instant.
    project.case("test-loop/a-stuck", "loop\n", "never\n");
    for name in ["b", "c", "d", "e", "f"] {
        project.case(&format!("test-loop/{name}"), "echo\n", "echo\n");
    }
    let output = project.grundy(&["check", "-v", "-j", "2", "--time-limit", "400"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        reported_ids(&output),
        [
            "test-loop/a-stuck",
            "test-loop/b",
            "test-loop/c",
            "test-loop/d",
            "test-loop/e",
            "test-loop/f"
        ],
        "{}",
        dump(&output)
    );
    assert_eq!(verdict_of(&output, "test-loop/a-stuck"), "TLE");
    assert_eq!(closing_line(&output), "5 passed, 1 failed");
}
