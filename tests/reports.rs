//! The CI side of `grundy check` through the real binary: JSON lines against the human summary,
//! the JUnit file, partitions across a matrix, status levels, slow cases, and the progress bar
//! (only on a terminal, never on CI or in a pipe).

use crate::common;

use std::process::Output;

use common::*;
use serde_json::Value;

/// Passing, wrong (WA), malformed (RE), panicking (RE) and expected-less (NOEXP) cases.
fn mixed_project() -> Project {
    let project = Project::new();
    project.powers("sample-1", &[1, 3, 4]);
    project.powers("large/many", &(1..=300).collect::<Vec<_>>());
    project.case("powers-of-two/wrong", "3\n4\n", "Cici\nCici\n");
    project.case("powers-of-two/malformed", "three\n", "Cici\n");
    project.file("fixtures/powers-of-two/no-answer.in", "2\n");
    project.case("lieges-of-legendre/sample-1", "2 1\n3 4\n", "Kevin\n");
    project.case("lieges-of-legendre/sample-2", "1 2\n3\n", "Nicky\n");
    project.case("test-panic/boom", "panic\n", "panic\n");
    project
}

/// Every stdout line as a JSON object.
pub(crate) fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\n{}", dump(output)))
        })
        .collect()
}

/// The case ids of a JSON run, in the order printed.
pub(crate) fn json_ids(output: &Output) -> Vec<String> {
    json_lines(output)
        .iter()
        .filter(|v| v["type"] == "case")
        .map(|v| v["case"].as_str().unwrap().to_string())
        .collect()
}

/// Replaces every time (`0.123 ms`, `0.01s`) with `T`, so two runs of the same suite compare.
fn without_times(text: &str) -> String {
    let mut out = String::new();
    let mut number = String::new();
    let mut rest = text.chars().peekable();
    while let Some(c) = rest.next() {
        if c.is_ascii_digit() || (c == '.' && !number.is_empty()) {
            number.push(c);
            continue;
        }
        let unit_follows = (c == ' ' && rest.peek() == Some(&'m')) || c == 's';
        if !number.is_empty() {
            out += if unit_follows { "T" } else { &number };
            number.clear();
        }
        out.push(c);
    }
    out + &number
}

fn elements<'a>(doc: &'a roxmltree::Document<'_>, tag: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
}

#[test]
fn json_lines_parse_and_the_summary_matches_the_human_summary() {
    let project = mixed_project();
    let json = project.grundy(&["check", "--format", "json", "-j", "3"]);
    assert_eq!(code(&json), 1, "{}", dump(&json));
    let lines = json_lines(&json);
    let (summary, cases) = lines.split_last().unwrap();
    assert!(cases.iter().all(|c| c["type"] == "case"), "{}", dump(&json));
    assert_eq!(summary["type"], "summary");

    let human = project.grundy(&["check", "-v", "-j", "3"]);
    assert_eq!(code(&human), 1, "{}", dump(&human));
    assert_eq!(
        closing_line(&human),
        format!("{} passed, {} failed", summary["passed"], summary["failed"])
    );
    assert_eq!(summary["total"], cases.len());
    assert_eq!(
        json_ids(&json),
        reported_ids(&human),
        "the same cases in the same order"
    );
    let failed = cases.iter().filter(|c| c["verdict"] != "AC").count();
    assert_eq!(summary["failed"], failed);
    // A human Judged line and a JSON summary agree on what ran.
    assert!(stdout(&human).contains(&format!("Judged {} cases in ", cases.len())));
    assert_eq!(
        summary["slow"],
        serde_json::json!([]),
        "nothing here is slow"
    );
    assert!(summary.get("partition").is_none());
    assert!(stderr(&json).is_empty(), "{}", dump(&json));
}

#[test]
fn junit_report_parses_with_suites_counts_and_the_diff_of_a_failure() {
    let project = mixed_project();
    project.case("test-loop/stuck", "loop\n", "loop\n");
    let human = project.grundy(&["check", "--time-limit", "200"]);
    let output = project.grundy(&[
        "check",
        "--time-limit",
        "200",
        "--junit",
        "target/junit.xml",
    ]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        without_times(&stdout(&output)),
        without_times(&stdout(&human)),
        "--junit changes nothing on stdout"
    );

    let xml = project.read("target/junit.xml");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    // WA and NOEXP are failures; two RE and a TLE are errors.
    assert_eq!(root.attribute("tests"), Some("9"), "{xml}");
    assert_eq!(root.attribute("failures"), Some("2"), "{xml}");
    assert_eq!(root.attribute("errors"), Some("3"), "{xml}");
    let suites: Vec<_> = elements(&doc, "testsuite")
        .iter()
        .map(|s| (s.attribute("name").unwrap(), s.attribute("tests").unwrap()))
        .collect();
    assert_eq!(
        suites,
        [
            ("lieges-of-legendre", "2"),
            ("powers-of-two", "5"),
            ("test-loop", "1"),
            ("test-panic", "1")
        ]
    );
    for case in elements(&doc, "testcase") {
        let name = case.attribute("name").unwrap();
        assert_eq!(case.attribute("classname"), name.split('/').next(), "{xml}");
        let seconds: f64 = case.attribute("time").unwrap().parse().unwrap();
        assert!(seconds >= 0.0);
    }

    let failure = |id: &str| {
        let case = elements(&doc, "testcase")
            .into_iter()
            .find(|c| c.attribute("name") == Some(id))
            .unwrap_or_else(|| panic!("no testcase {id}\n{xml}"));
        case.children()
            .find(|n| n.is_element())
            .unwrap_or_else(|| panic!("{id} passed\n{xml}"))
    };
    let wrong = failure("powers-of-two/wrong");
    assert_eq!(wrong.tag_name().name(), "failure");
    assert_eq!(wrong.attribute("type"), Some("WA"));
    assert!(
        wrong
            .attribute("message")
            .unwrap()
            .contains("expected `Cici`, found `Kiki`"),
        "{xml}"
    );
    let text = wrong.text().unwrap();
    assert!(text.contains("│-Cici") && text.contains("│+Kiki"), "{text}");
    assert!(!text.contains('\u{1b}'), "the diff is plain");
    assert_eq!(
        failure("powers-of-two/no-answer").attribute("type"),
        Some("NOEXP")
    );
    let stuck = failure("test-loop/stuck");
    assert_eq!(
        (stuck.tag_name().name(), stuck.attribute("type")),
        ("error", Some("TLE"))
    );
    let boom = failure("test-panic/boom");
    assert_eq!(
        (boom.tag_name().name(), boom.attribute("type")),
        ("error", Some("RE"))
    );
    assert!(
        boom.attribute("message")
            .unwrap()
            .contains("asked for a panic"),
        "{xml}"
    );
}

#[test]
fn junit_report_of_a_passing_run_replaces_an_earlier_one() {
    let project = Project::new();
    project.case("lieges-of-legendre/sample-1", "2 1\n3 4\n", "Kevin\n");
    project.file("junit.xml", "stale");
    let output = project.grundy(&["check", "--junit", "junit.xml", "-q"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let xml = project.read("junit.xml");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    assert_eq!(doc.root_element().attribute("tests"), Some("1"));
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
    assert!(elements(&doc, "failure").is_empty() && elements(&doc, "error").is_empty());
}

#[test]
fn an_unwritable_junit_report_is_exit_2_after_the_summary() {
    let project = Project::new();
    project.powers("a", &[1]);
    project.file("blocker", "a file where a folder should be");
    let output = project.grundy(&["check", "--junit", "blocker/junit.xml"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "1 passed, 0 failed",
        "the summary is still printed"
    );
    assert!(
        stderr(&output).contains("cannot write the JUnit report `blocker/junit.xml`"),
        "{}",
        dump(&output)
    );
}

#[test]
fn status_levels_change_only_what_they_should() {
    let project = mixed_project();
    let run = |level: Option<&str>| {
        let mut args = vec!["check", "-j", "2"];
        args.extend(level);
        let output = project.grundy(&args);
        assert_eq!(code(&output), 1, "{}", dump(&output));
        assert!(stderr(&output).is_empty(), "{}", dump(&output));
        without_times(&stdout(&output))
    };
    let (quiet, normal, verbose) = (run(Some("-q")), run(None), run(Some("-v")));

    // -q: exactly the final two lines of the default report.
    let last_two: Vec<&str> = normal.lines().rev().take(2).collect();
    let quiet_lines: Vec<&str> = quiet.lines().rev().collect();
    assert_eq!(quiet_lines, last_two, "{quiet}");
    assert!(
        quiet.starts_with("Judged 8 cases in Ts with 2 jobs."),
        "{quiet}"
    );

    // Default: failures with their details, no passing case.
    assert!(!normal.contains("PASS "), "{normal}");
    assert_eq!(normal.matches("FAIL ").count(), 4, "{normal}");
    assert!(normal.contains("│-Cici"), "{normal}");

    // -v: the default report plus one line per passing case, with its time.
    let passes: Vec<&str> = verbose.lines().filter(|l| l.starts_with("PASS ")).collect();
    assert_eq!(passes.len(), 4, "{verbose}");
    assert!(passes.iter().all(|l| l.ends_with(" (T ms)")), "{passes:?}");
    let without_passes: String = verbose
        .lines()
        .filter(|l| !l.starts_with("PASS "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without_passes, normal);

    // JSON ignores the levels.
    let json = |level: &str| json_ids(&project.grundy(&["check", "--format", "json", level]));
    assert_eq!(json("-q"), json("-v"));
}

#[test]
fn the_slowest_are_listed_with_their_times_and_a_tle_is_not_called_slow() {
    let project = Project::new();
    project.powers("fast", &[1]);
    project.case("test-loop/stuck", "loop\n", "loop\n");
    project.case("test-loop/echo", "hi\n", "hi\n");
    let args = ["check", "--time-limit", "100", "--slowest", "2"];
    let output = project.grundy(&args);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    // Over half its limit, but TLE already: a failure, not a warning of one to come.
    assert!(!text.contains("Slow cases"), "{text}");
    let slowest = text
        .split_once("Slowest 2 cases:\n")
        .unwrap_or_else(|| panic!("{text}"))
        .1;
    let listed: Vec<&str> = slowest
        .lines()
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(listed.len(), 2, "{text}");
    assert!(
        listed[0].ends_with(" ms of 100 ms  test-loop/stuck TLE"),
        "the stuck case is the slowest\n{text}"
    );

    let json = project.grundy(&[
        "check",
        "--time-limit",
        "100",
        "--slowest",
        "2",
        "--format",
        "json",
    ]);
    let summary = json_lines(&json).pop().unwrap();
    assert_eq!(summary["slow"], serde_json::json!([]), "{summary}");
    let slowest = summary["slowest"].as_array().unwrap();
    assert_eq!(slowest.len(), 2, "{summary}");
    assert_eq!(slowest[0]["case"], "test-loop/stuck", "{summary}");
    assert_eq!(slowest[0]["time_limit_ms"], 100.0, "{summary}");
    assert!(
        slowest[0]["time_ms"].as_f64().unwrap() >= 100.0,
        "{summary}"
    );

    let quiet = project.grundy(&["check", "--time-limit", "100", "--slowest", "2", "-q"]);
    assert_eq!(
        stdout(&quiet).lines().count(),
        2,
        "-q keeps only the final lines\n{}",
        dump(&quiet)
    );
}

/// A run long enough for the progress bar to draw and tick: one case is stopped at its limit.
fn long_project() -> Project {
    let project = mixed_project();
    project.case("test-loop/stuck", "loop\n", "loop\n");
    project
}

#[test]
fn no_progress_bar_or_carriage_return_when_output_is_not_a_terminal() {
    let project = long_project();
    for format in ["human", "json"] {
        for level in ["-q", "-v", "--fail-fast"] {
            let args = ["check", "--time-limit", "300", "--format", format, level];
            let output = project.grundy(&args);
            assert_eq!(code(&output), 1, "{}", dump(&output));
            for text in [stdout(&output), stderr(&output)] {
                assert!(
                    !text.contains('\r') && !text.contains('\u{1b}'),
                    "{args:?}\n{}",
                    dump(&output)
                );
            }
        }
    }
}

/// `grundy ARGS` under a pseudo-terminal (util-linux `script`), stdout and stderr both on it:
/// everything the terminal received, and the exit code.
fn on_a_terminal(project: &Project, args: &str, ci: bool) -> (String, i32) {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_grundy"));
    let mut script = std::process::Command::new("script");
    script
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(project.path())
        .stdin(std::process::Stdio::null())
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env_remove("CI");
    if ci {
        script.env("CI", "true");
    }
    let output = script.output().expect("util-linux `script` runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

#[test]
fn on_a_terminal_a_progress_bar_is_drawn_then_cleared_before_the_summary() {
    let project = long_project();
    let (screen, code) = on_a_terminal(&project, "check --time-limit 400", false);
    assert_eq!(code, 1, "{screen}");
    assert!(
        screen.contains("/9 "),
        "cases done of the total\n{screen:?}"
    );
    assert!(
        screen.contains(" failed · running "),
        "failures and the cases in flight\n{screen:?}"
    );
    assert!(
        screen.contains("\r\u{1b}[2K"),
        "the bar is redrawn in place\n{screen:?}"
    );
    // Cleared before the summary: nothing of the bar after the problem table starts.
    let summary = &screen[screen.find("  lieges-of-legendre").expect("the summary")..];
    assert!(
        !summary.contains(" · running") && !summary.contains('\u{1b}'),
        "{summary:?}"
    );
    assert!(summary.ends_with("4 passed, 5 failed\r\n"), "{summary:?}");
    // Failures printed during the run are whole lines, not mixed into the bar.
    assert!(
        screen.contains("FAIL TLE   test-loop/stuck ("),
        "{screen:?}"
    );
}

#[test]
fn on_a_terminal_under_ci_or_quiet_there_is_no_progress_bar() {
    let project = long_project();
    for (args, ci) in [
        ("check --time-limit 300", true),
        ("check --time-limit 300 -q", false),
    ] {
        let (screen, code) = on_a_terminal(&project, args, ci);
        assert_eq!(code, 1, "{screen}");
        assert!(
            !screen.contains('\u{1b}') && !screen.contains(" · running"),
            "{args} CI={ci}\n{screen:?}"
        );
        assert!(screen.ends_with("4 passed, 5 failed\r\n"), "{screen:?}");
    }
}
