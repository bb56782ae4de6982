//! `list`'s report in both formats.
use std::time::Duration;

use std::path::Path;

use super::listed::{Kind, Listed};
use super::{list_cases, list_report, Format};
use crate::model::TimeLimit;

fn nim() -> Listed {
    Listed {
        problem: "nim".into(),
        kind: Kind::BuiltIn,
        cases: 3,
        time_limit: Some(TimeLimit::fixed(
            Duration::from_millis(2000),
            crate::model::Fixed::Runner,
        )),
        memory_mib: 1024,
        output_mib: 64,
        judge: "tokens".into(),
        title: Some("Nim"),
        unreadable: None,
    }
}

#[test]
fn the_table_has_a_row_per_problem_and_the_root() {
    let broken = Listed {
        problem: "broken-package".into(),
        kind: Kind::Package,
        cases: 0,
        title: None,
        unreadable: Some("broken-package/problem.yaml: bad".into()),
        ..nim()
    };
    let text = list_report(&[nim(), broken], Path::new("fixtures"), Format::Human);
    let expected = "\
PROBLEM         CASES      TIME    MEMORY    OUTPUT  JUDGE         TITLE
nim                 3    2000ms  1024 MiB    64 MiB  tokens        Nim
broken-package      0    2000ms  1024 MiB    64 MiB  (unreadable)  (no built-in solver: judge with --exec)
fixtures root: fixtures
";
    assert_eq!(text, expected);
}

#[test]
fn a_json_line_per_problem_with_its_settings() {
    let text = list_report(&[nim()], Path::new("fixtures"), Format::Json);
    let line: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
    let expected = serde_json::json!({
        "type": "problem",
        "problem": "nim",
        "kind": "built-in",
        "cases": 3,
        "time_limit_ms": 2000.0,
        "time_limit": "2s (runner.toml)",
        "memory_limit_mib": 1024,
        "output_limit_mib": 64,
        "judge": "tokens",
        "title": "Nim",
        "unreadable": null,
    });
    assert_eq!(line, expected);
}

#[test]
fn a_limit_not_yet_known_or_not_had_is_said_under_the_table_and_null_in_json() {
    let unknown = Listed {
        problem: "computed".into(),
        kind: Kind::Package,
        title: None,
        time_limit: None,
        ..nim()
    };
    let none = Listed {
        problem: "untimed".into(),
        time_limit: Some(TimeLimit::default()),
        ..unknown.clone()
    };
    let text = list_report(&[unknown.clone(), none], Path::new("f"), Format::Human);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("computed") && lines[1].contains("        ?  "));
    assert!(lines[2].starts_with("untimed") && lines[2].contains("     none  "));
    assert!(lines[3].starts_with("computed: the time limit is computed from its accepted"));
    assert!(lines[4].starts_with("untimed: no time limit: "));
    assert_eq!(lines[5], "fixtures root: f");
    let json = list_report(&[unknown], Path::new("f"), Format::Json);
    let line: serde_json::Value = serde_json::from_str(json.trim_end()).unwrap();
    assert_eq!(line["time_limit_ms"], serde_json::Value::Null);
    assert_eq!(line["time_limit"], "unknown");
}

#[test]
fn the_cases_a_line_each() {
    let found = [("nim", "nim/sample-1"), ("nim", "nim/big/2")];
    assert_eq!(
        list_cases(&found, Format::Human),
        "nim/sample-1\nnim/big/2\n"
    );
    let lines: Vec<serde_json::Value> = list_cases(&found, Format::Json)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let id = serde_json::json!({"problem": "nim", "subject": null, "case": "big/2"});
    assert_eq!(lines[1]["type"], "case");
    assert_eq!(lines[1]["case"], "nim/big/2");
    assert_eq!(lines[1]["id"], id);
}
