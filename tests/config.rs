//! runner.toml through the real binary: located errors, per-problem overrides, `--config`,
//! `--fixtures`, and command-line flags winning over the file.

use crate::common;

use common::*;
use serde_json::Value;

/// A project where powers-of-two passes under `tokens` but not under `lines` (layout only), and
/// lieges-of-legendre passes under `tokens` but not under `exact` (no final newline).
fn layout_project() -> Project {
    let project = Project::new();
    project.case("powers-of-two/layout", "1\n3\n", "Kiki Cici\n");
    project.case("lieges-of-legendre/no-newline", "2 1\n3 4\n", "Kevin");
    project
}

fn json_lines(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{}", dump(output))))
        .collect()
}

fn case_json<'a>(lines: &'a [Value], id: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["case"] == id)
        .unwrap_or_else(|| panic!("no JSON object for {id}: {lines:?}"))
}

#[test]
fn an_unknown_key_exits_2_with_line_and_column() {
    let project = layout_project();
    project.file("runner.toml", "jobs = 2\n\ntimelimit = 5\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let message = stderr(&output);
    assert!(message.contains("runner.toml:3:1:"), "{message}");
    assert!(message.contains("timelimit"), "{message}");
    assert!(
        !stdout(&output).contains("passed"),
        "nothing is judged\n{}",
        dump(&output)
    );
}

#[test]
fn an_unknown_key_in_a_problem_table_is_located() {
    let project = layout_project();
    project.file(
        "runner.toml",
        "checker = \"tokens\"\n[problems.powers-of-two]\ntime_limit_ms = 100\nchekcer = \"lines\"\n",
    );
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("runner.toml:4:1:"),
        "{}",
        dump(&output)
    );
}

#[test]
fn a_wrong_type_a_bad_checker_and_an_unknown_problem_are_located() {
    let cases = [
        ("jobs = 1\ntime_limit_ms = \"fast\"\n", "runner.toml:2:17:"),
        ("\n\nchecker = \"fuzzy\"\n", "runner.toml:3:11:"),
        (
            "[problems.powers-of-tw]\nchecker = \"lines\"\n",
            "runner.toml:1:11:",
        ),
        ("time_limit_ms = 0\n", "runner.toml:1:17:"),
    ];
    for (text, location) in cases {
        let project = layout_project();
        project.file("runner.toml", text);
        let output = project.grundy(&["check"]);
        assert_eq!(code(&output), 2, "{text}\n{}", dump(&output));
        assert!(
            stderr(&output).contains(location),
            "{text}\n{}",
            dump(&output)
        );
    }
}

#[test]
fn a_per_problem_checker_override_applies_to_that_problem_only() {
    let project = layout_project();
    project.file(
        "runner.toml",
        "checker = \"tokens\"\n\n[problems.powers-of-two]\nchecker = \"lines\"\n",
    );
    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        verdict_of(&output, "powers-of-two/layout"),
        "PE",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "lieges-of-legendre/no-newline"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(closing_line(&output), "1 passed, 1 failed");

    // The other way round: the top level is strict, the problem table relaxes it.
    project.file(
        "runner.toml",
        "checker = \"exact\"\n[problems.powers-of-two]\nchecker = \"tokens\"\n",
    );
    let output = project.grundy(&["check", "-v"]);
    assert_eq!(
        verdict_of(&output, "powers-of-two/layout"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "lieges-of-legendre/no-newline"),
        "PE",
        "{}",
        dump(&output)
    );
}

#[test]
fn config_points_to_another_file_whose_fixtures_are_relative_to_it() {
    let project = Project::new();
    // The default places are empty; everything lives under conf/ and cases/.
    project.file(
        "conf/judge.toml",
        "fixtures = \"../cases\"\n[problems.lieges-of-legendre]\nchecker = \"exact\"\n",
    );
    project.file("cases/lieges-of-legendre/no-newline.in", "2 1\n3 4\n");
    project.file("cases/lieges-of-legendre/no-newline.out", "Kevin");
    project.file("cases/powers-of-two/a.in", "3\n");
    project.file("cases/powers-of-two/a.out", "Cici");

    let output = project.grundy(&["check"]);
    assert_eq!(
        code(&output),
        2,
        "the default root is empty\n{}",
        dump(&output)
    );

    let output = project.grundy(&["check", "-v", "--config", "conf/judge.toml"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        verdict_of(&output, "lieges-of-legendre/no-newline"),
        "PE",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "powers-of-two/a"),
        "AC",
        "{}",
        dump(&output)
    );

    // Errors in it name it.
    project.file("conf/judge.toml", "fixtures = \"../cases\"\nbogus = 1\n");
    let output = project.grundy(&["check", "--config", "conf/judge.toml"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("judge.toml:2:1:"),
        "{}",
        dump(&output)
    );
}

#[test]
fn a_named_config_that_does_not_exist_exits_2() {
    let project = layout_project();
    let output = project.grundy(&["check", "--config", "missing.toml"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("missing.toml"),
        "{}",
        dump(&output)
    );
}

#[test]
fn fixtures_flag_overrides_the_file() {
    let project = Project::new();
    project.file("runner.toml", "fixtures = \"nowhere\"\n");
    project.file("alt/powers-of-two/a.in", "1\n");
    project.file("alt/powers-of-two/a.out", "Kiki\n");

    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("nowhere"), "{}", dump(&output));

    let output = project.grundy(&["check", "--fixtures", "alt"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "1 passed, 0 failed");
}

#[test]
fn command_line_flags_beat_the_file() {
    let project = layout_project();
    project.file(
        "runner.toml",
        "checker = \"exact\"\njobs = 3\n[problems.powers-of-two]\nchecker = \"lines\"\n",
    );

    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(closing_line(&output), "0 passed, 2 failed");

    // --checker wins over the top level and over the problem table.
    let output = project.grundy(&["check", "--checker", "tokens"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "2 passed, 0 failed");

    let jobs = |args: &[&str]| {
        let output = project.grundy(args);
        json_lines(&output).last().unwrap()["jobs"].clone()
    };
    assert_eq!(jobs(&["check", "--format", "json"]), 3);
    assert_eq!(jobs(&["check", "--format", "json", "-j", "1"]), 1);
}

#[test]
fn time_limit_flag_beats_the_file() {
    let project = Project::new();
    project.case("test-loop/stuck", "loop\n", "never\n");
    project.case("test-loop/fine", "ok\n", "ok\n");
    project.file(
        "runner.toml",
        "time_limit_ms = 5000\n[problems.test-loop]\ntime_limit_ms = 150\n",
    );

    let run = |args: &[&str]| {
        let output = project.grundy(args);
        assert_eq!(code(&output), 1, "{}", dump(&output));
        let lines = json_lines(&output);
        let stuck = case_json(&lines, "test-loop/stuck").clone();
        assert_eq!(stuck["verdict"], "TLE", "{}", dump(&output));
        assert_eq!(case_json(&lines, "test-loop/fine")["verdict"], "AC");
        stuck["time_ms"].as_f64().unwrap()
    };
    let from_file = run(&["check", "--format", "json"]);
    assert!(from_file >= 150.0, "{from_file}");
    assert!(
        from_file < 5000.0,
        "the problem table's limit applies, not the top level's: {from_file}"
    );
    let from_flag = run(&["check", "--format", "json", "--time-limit", "600"]);
    assert!(from_flag >= 600.0, "{from_flag}");
}

#[test]
fn invalid_flag_values_exit_2() {
    let project = layout_project();
    for args in [
        &["check", "--checker", "fuzzy"][..],
        &["check", "--checker", "float:x:1"],
        &["check", "--time-limit", "0"],
        &["check", "--jobs", "many"],
        &["check", "--format", "xml"],
    ] {
        let output = project.grundy(args);
        assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
        assert!(
            !stdout(&output).contains("passed"),
            "{args:?}\n{}",
            dump(&output)
        );
    }
}

#[test]
fn limits_that_cannot_be_honoured_are_refused_with_their_flag_or_location() {
    let project = layout_project();
    // 2^44 + 1 MiB: in bytes it wraps a 64-bit counter, which once meant a 1 MiB limit.
    for (flag, value) in [
        ("--memory-limit", "17592186044417"),
        ("--memory-limit", "17592186044416"),
        ("--output-limit", "17592186044417"),
        ("--time-limit", "99999999999999"),
        ("--jobs", "4294967296"),
        ("--jobs", "1000000"),
    ] {
        let output = project.grundy(&["check", flag, value]);
        assert_eq!(code(&output), 2, "{flag} {value}\n{}", dump(&output));
        assert!(
            stderr(&output).contains(flag) && stderr(&output).contains(value),
            "the error names the flag and the value\n{}",
            dump(&output)
        );
        assert!(!stdout(&output).contains("passed"), "{}", dump(&output));
    }
    for (text, at) in [
        ("memory_limit_mb = 17592186044417\n", "runner.toml:1:19:"),
        ("\noutput_limit_mb = 17592186044416\n", "runner.toml:2:19:"),
        ("time_limit_ms = 99999999999999\n", "runner.toml:1:17:"),
        ("jobs = 5000\n", "runner.toml:1:8:"),
        (
            "[problems.powers-of-two]\nmemory_limit_mb = 99999999999\n",
            "runner.toml:2:19:",
        ),
    ] {
        project.file("runner.toml", text);
        let output = project.grundy(&["check"]);
        assert_eq!(code(&output), 2, "{text}\n{}", dump(&output));
        assert!(stderr(&output).contains(at), "{text}\n{}", dump(&output));
    }
}

#[test]
fn more_jobs_than_cases_is_fine() {
    let project = layout_project();
    let output = project.grundy(&["check", "-j", "1024", "--checker", "tokens"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stdout(&output).contains("with 1024 jobs"),
        "{}",
        dump(&output)
    );
}
