//! Output formats of `grundy check`: `--format json` line by line (fields, order, messages,
//! skipped cases) and color (`--color always`, `never`, `NO_COLOR` under auto).

use crate::common;

use common::*;
use serde_json::Value;

/// One case of each kind: AC, WA, RE (panic), RE (malformed input) and NOEXP.
fn mixed_project() -> Project {
    let project = Project::new();
    project.powers("b-right", &[1, 3]);
    project.powers("a/nested", &[6]);
    project.case("powers-of-two/c-wrong", "3\n", "Kiki\n");
    project.case("powers-of-two/d-malformed", "x\n", "Kiki\n");
    project.file("fixtures/powers-of-two/e-missing.in", "2\n");
    project.case("test-panic/boom", "panic\n", "panic\n");
    project.case("test-panic/echo", "hi\n", "hi\n");
    project
}

fn parse_lines(output: &std::process::Output) -> Vec<Value> {
    let text = stdout(output);
    assert!(!text.is_empty(), "{}", dump(output));
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\n{}", dump(output)));
            assert!(value.is_object(), "{line}");
            value
        })
        .collect()
}

#[test]
fn json_has_one_object_per_case_in_sorted_order_then_a_matching_summary() {
    let project = mixed_project();
    let output = project.grundy(&["check", "--format", "json", "-j", "3"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let lines = parse_lines(&output);
    let (summary, cases) = lines.split_last().unwrap();

    let expected = [
        ("powers-of-two/a/nested", "AC"),
        ("powers-of-two/b-right", "AC"),
        ("powers-of-two/c-wrong", "WA"),
        ("powers-of-two/d-malformed", "RE"),
        ("powers-of-two/e-missing", "NOEXP"),
        ("test-panic/boom", "RE"),
        ("test-panic/echo", "AC"),
    ];
    assert_eq!(cases.len(), expected.len(), "{}", dump(&output));
    for (case, (id, verdict)) in cases.iter().zip(expected) {
        assert_eq!(case["case"], id, "{case}");
        assert_eq!(case["problem"], id.split('/').next().unwrap(), "{case}");
        assert_eq!(case["verdict"], verdict, "{case}");
        assert!(case["time_ms"].as_f64().is_some_and(|t| t >= 0.0), "{case}");
        if verdict == "AC" {
            assert!(case.get("message").is_none_or(Value::is_null), "{case}");
        } else {
            let message = case["message"].as_str().unwrap_or_else(|| panic!("{case}"));
            assert!(!message.is_empty(), "{case}");
        }
    }
    assert!(
        cases[2]["message"].as_str().unwrap().contains("`Cici`"),
        "{}",
        cases[2]
    );
    assert!(
        cases[3]["message"]
            .as_str()
            .unwrap()
            .contains("line 1, column 1"),
        "{}",
        cases[3]
    );
    assert!(
        cases[4]["message"].as_str().unwrap().contains("--bless"),
        "{}",
        cases[4]
    );
    assert!(
        cases[5]["message"]
            .as_str()
            .unwrap()
            .contains("asked for a panic"),
        "{}",
        cases[5]
    );

    assert_eq!(summary["passed"], 3, "{summary}");
    assert_eq!(summary["failed"], 4, "{summary}");
    assert_eq!(summary["total"], 7, "{summary}");
    assert!(
        summary["time_ms"].as_f64().is_some_and(|t| t >= 0.0),
        "{summary}"
    );
    assert!(summary.get("case").is_none(), "{summary}");

    // The human report of the same run says the same.
    let human = project.grundy(&["check"]);
    assert_eq!(code(&human), 1);
    assert_eq!(
        closing_line(&human),
        format!("{} passed, {} failed", summary["passed"], summary["failed"])
    );
}

#[test]
fn json_summary_counts_skipped_cases() {
    let project = Project::new();
    project.case("powers-of-two/a", "3\n", "Kiki\n");
    project.powers("b", &[1]);
    project.powers("c", &[2]);
    let output = project.grundy(&["check", "--format", "json", "-j", "1", "--fail-fast"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let lines = parse_lines(&output);
    let summary = lines.last().unwrap();
    assert_eq!(
        lines.len(),
        2,
        "one judged case, then the summary\n{}",
        dump(&output)
    );
    assert_eq!(summary["passed"], 0, "{summary}");
    assert_eq!(summary["failed"], 1, "{summary}");
    assert_eq!(summary["total"], 3, "{summary}");
    let human = project.grundy(&["check", "-j", "1", "--fail-fast"]);
    assert_eq!(closing_line(&human), "0 passed, 1 failed, 2 skipped");
}

#[test]
fn json_of_an_all_passing_run() {
    let project = Project::new();
    project.powers("a", &[1]);
    project.case("lieges-of-legendre/s", "2 1\n3 4\n", "Kevin\n");
    let output = project.grundy(&["check", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let lines = parse_lines(&output);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["case"], "lieges-of-legendre/s");
    assert_eq!(lines[1]["case"], "powers-of-two/a");
    assert_eq!(lines[2]["passed"], 2);
    assert_eq!(lines[2]["failed"], 0);
    assert_eq!(lines[2]["total"], 2);
}

#[test]
fn color_always_paints_a_failing_report() {
    let project = Project::new();
    project.case("powers-of-two/wrong", "1\n3\n", "Kiki\nKiki\n");
    for args in [
        &["--color", "always", "check"][..],
        &["check", "--color", "always"][..],
    ] {
        let output = project.grundy(args);
        assert_eq!(code(&output), 1, "{}", dump(&output));
        assert!(
            stdout(&output).contains("\u{1b}["),
            "{args:?}\n{}",
            dump(&output)
        );
    }
}

#[test]
fn no_color_under_auto_or_never() {
    let project = Project::new();
    project.case("powers-of-two/wrong", "1\n3\n", "Kiki\nKiki\n");
    // The helper sets NO_COLOR; the default is auto.
    for args in [
        &["check"][..],
        &["check", "--color", "auto"],
        &["check", "--color", "never"],
    ] {
        let output = project.grundy(args);
        assert_eq!(code(&output), 1, "{}", dump(&output));
        assert!(stdout(&output).contains("FAIL WA"), "{}", dump(&output));
        assert!(
            !stdout(&output).contains('\u{1b}'),
            "{args:?}\n{}",
            dump(&output)
        );
        assert!(
            !stderr(&output).contains('\u{1b}'),
            "{args:?}\n{}",
            dump(&output)
        );
    }
    // Under `never`, NO_COLOR is not needed.
    let output = project
        .command(&["check", "--color", "never"])
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(!stdout(&output).contains('\u{1b}'), "{}", dump(&output));
}

/// stdout of `grundy ARGS` on a pseudo-terminal (util-linux `script`), with `NO_COLOR` as given
/// and `CI` set so that no progress bar draws its own escapes.
fn on_a_terminal(project: &Project, args: &str, no_color: Option<&str>) -> String {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_grundy"));
    let mut script = std::process::Command::new("script");
    script
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(project.path())
        .stdin(std::process::Stdio::null())
        .env("TERM", "xterm")
        .env("CI", "true")
        .env_remove("NO_COLOR");
    if let Some(value) = no_color {
        script.env("NO_COLOR", value);
    }
    let output = script.output().expect("util-linux `script` runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn on_a_terminal_auto_colors_unless_no_color_is_set() {
    let project = Project::new();
    project.case("powers-of-two/wrong", "1\n3\n", "Kiki\nKiki\n");
    let screen = on_a_terminal(&project, "check", None);
    assert!(screen.contains("FAIL "), "{screen:?}");
    assert!(
        screen.contains("\u{1b}["),
        "a terminal gets color\n{screen:?}"
    );
    // An empty NO_COLOR does not count (no-color.org).
    let screen = on_a_terminal(&project, "check", Some(""));
    assert!(screen.contains("\u{1b}["), "{screen:?}");
    let screen = on_a_terminal(&project, "check", Some("1"));
    assert!(screen.contains("FAIL WA"), "{screen:?}");
    assert!(
        !screen.contains('\u{1b}'),
        "NO_COLOR wins under auto\n{screen:?}"
    );
    let screen = on_a_terminal(&project, "check --color always", Some("1"));
    assert!(
        screen.contains("\u{1b}["),
        "--color always beats NO_COLOR\n{screen:?}"
    );
    let screen = on_a_terminal(&project, "check --color never", None);
    assert!(!screen.contains('\u{1b}'), "{screen:?}");
}
