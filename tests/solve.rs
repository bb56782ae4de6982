//! `grundy solve PROBLEM [--brute]`: a built-in solver as a filter from stdin to stdout.

use crate::common;

use common::*;

fn solve(project: &Project, args: &[&str], input: &str) -> std::process::Output {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    project.grundy_fed(&all, input)
}

#[test]
fn solve_prints_the_answers_of_the_samples() {
    let project = Project::new();
    let output = solve(&project, &["powers-of-two"], "1\n3\n");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(stdout(&output), "Kiki\nCici\n");

    let output = solve(&project, &["lieges-of-legendre"], "2 1\n3 4\n");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(stdout(&output), "Kevin\n");
    let output = solve(&project, &["lieges-of-legendre"], "1 2\n3\n");
    assert_eq!(stdout(&output), "Nicky\n");
}

#[test]
fn malformed_input_exits_nonzero_with_line_and_column() {
    let project = Project::new();
    let output = solve(&project, &["powers-of-two"], "3\n4\nfive\n");
    assert_ne!(code(&output), 0, "{}", dump(&output));
    assert!(
        stderr(&output).contains("line 3, column 1"),
        "{}",
        dump(&output)
    );
    assert_eq!(stdout(&output), "", "no partial answers\n{}", dump(&output));

    let output = solve(&project, &["lieges-of-legendre"], "2 1\n3 x4\n");
    assert_ne!(code(&output), 0, "{}", dump(&output));
    assert!(
        stderr(&output).contains("line 2, column 3"),
        "{}",
        dump(&output)
    );
}

#[test]
fn brute_force_agrees_with_the_solver_on_small_inputs() {
    let project = Project::new();
    let input: String = (1..=60).map(|n| format!("{n}\n")).collect();
    let fast = solve(&project, &["powers-of-two"], &input);
    let brute = solve(&project, &["powers-of-two", "--brute"], &input);
    assert_eq!(code(&fast), 0, "{}", dump(&fast));
    assert_eq!(code(&brute), 0, "{}", dump(&brute));
    assert_eq!(stdout(&fast), stdout(&brute));
    let expected: String = (1..=60)
        .map(|n| format!("{}\n", powers_answer(n)))
        .collect();
    assert_eq!(stdout(&fast), expected);

    for input in [
        "2 1\n3 4\n",
        "1 2\n3\n",
        "3 3\n1 2 6\n",
        "4 2\n5 7 8 9\n",
        "1 1\n24\n",
    ] {
        let fast = solve(&project, &["lieges-of-legendre"], input);
        let brute = solve(&project, &["lieges-of-legendre", "--brute"], input);
        assert_eq!(code(&fast), 0, "{input}\n{}", dump(&fast));
        assert_eq!(code(&brute), 0, "{input}\n{}", dump(&brute));
        assert_eq!(stdout(&fast), stdout(&brute), "{input}");
    }
}

#[test]
fn an_unknown_problem_exits_2_with_a_suggestion() {
    let project = Project::new();
    let output = solve(&project, &["power-of-two"], "1\n");
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let message = stderr(&output);
    assert!(message.contains("power-of-two"), "{message}");
    assert!(
        message.contains("did you mean `powers-of-two`"),
        "{message}"
    );
    assert_eq!(stdout(&output), "");
}
