//! `grundy list`: the problems with the settings in force for each, as a table or a JSON line
//! per problem; `--cases` the cases.

use crate::common::*;

use serde_json::{json, Value};

/// A fixtures root of a built-in problem's case, a folder of cases no solver judges, a package
/// with its own limits, and a package whose `problem.yaml` cannot be read; its runner.toml
/// gives the built-in problems a checker.
fn root() -> Project {
    let project = Project::new();
    project.file("runner.toml", "checker = \"lines\"\ntime_limit_ms = 3000\n");
    project.case("nim/sample-1", "1\n1\n", "x\n");
    project.case("plain/a", "x\n", "x\n");
    project.case("plain/b", "y\n", "y\n");
    let echo = "problem_format_version: 2023-07\nname: Echo\nlimits:\n  time_limit: 1.5\n  \
                memory: 300\n  output: 9\n";
    project.file("fixtures/echo/problem.yaml", echo);
    project.file("fixtures/echo/data/secret/1.in", "1\n");
    project.file("fixtures/echo/data/secret/1.ans", "1\n");
    let huge = "problem_format_version: 2023-07\nname: Huge\nlimits:\n  time_limit: 1e300\n";
    project.file("fixtures/huge/problem.yaml", huge);
    project
}

/// `--format json`: a `problem` line per problem, with where it comes from, its cases, its
/// limits and its judge, as the table shows them; a package that cannot be read has no judge,
/// and why (located) instead, and the run exits 2 as the table's does.
#[test]
fn json_has_a_line_per_problem_with_its_settings() {
    let project = root();
    let output = project.grundy(&["list", "--format", "json"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let lines = crate::reports::json_lines(&output);
    let of = |problem: &str| -> &Value {
        let found = lines.iter().find(|line| line["problem"] == problem);
        found.unwrap_or_else(|| panic!("no line of {problem}\n{}", dump(&output)))
    };
    assert!(
        lines.iter().all(|line| line["type"] == "problem"),
        "{lines:?}"
    );
    for problem in BUILT_IN_PROBLEMS {
        assert_eq!(of(problem)["kind"], "built-in");
    }
    let settings = |line: &Value| {
        let keys = [
            "kind",
            "cases",
            "time_limit_ms",
            "memory_limit_mib",
            "output_limit_mib",
        ];
        json!(keys.map(|key| &line[key]))
    };
    let nim = of("nim");
    assert_eq!(
        settings(nim),
        json!(["built-in", 1, 3000.0, 256, 64]),
        "{nim}"
    );
    assert_eq!(
        (&nim["judge"], &nim["title"]),
        (&json!("lines"), &json!("Nim"))
    );
    let plain = of("plain");
    assert_eq!(
        settings(plain),
        json!(["fixtures", 2, 3000.0, 256, 64]),
        "{plain}"
    );
    assert_eq!(plain["title"], Value::Null, "{plain}");
    let echo = of("echo");
    assert_eq!(
        settings(echo),
        json!(["package", 1, 1500.0, 300, 9]),
        "{echo}"
    );
    assert_eq!(echo["unreadable"], Value::Null, "{echo}");
    let huge = of("huge");
    assert_eq!(huge["judge"], Value::Null, "{huge}");
    let why = huge["unreadable"].as_str().unwrap_or_default();
    assert!(
        why.contains("huge/problem.yaml:4:15: limits.time_limit"),
        "{huge}"
    );

    // The table says the same of each.
    let table = project.grundy(&["list"]);
    assert_eq!(code(&table), 2, "{}", dump(&table));
    let row = |problem: &str| -> Vec<String> {
        let text = stdout(&table);
        let row = text.lines().find(|l| l.starts_with(&format!("{problem} ")));
        let row = row.unwrap_or_else(|| panic!("no row of {problem}\n{text}"));
        row.split_whitespace().map(str::to_string).collect()
    };
    assert_eq!(
        row("echo")[..7],
        ["echo", "1", "1500ms", "300", "MiB", "9", "MiB"]
    );
    assert_eq!(row("echo")[7], echo["judge"].as_str().unwrap());
    assert_eq!(row("nim")[7], "lines");
}

/// `--cases --format json`: a `case` line per selected case, named as every report names it.
#[test]
fn json_cases_are_a_line_per_case() {
    let project = root();
    let output = project.grundy(&["list", "--cases", "--format", "json", "plain", "echo"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let ids: Vec<Value> = crate::reports::json_lines(&output)
        .iter()
        .map(|line| json!([line["type"], line["case"], line["id"]]))
        .collect();
    let id = |problem: &str, case: &str| json!({"problem": problem, "subject": null, "case": case});
    let expected = [
        json!(["case", "echo/secret/1", id("echo", "secret/1")]),
        json!(["case", "plain/a", id("plain", "a")]),
        json!(["case", "plain/b", id("plain", "b")]),
    ];
    assert_eq!(ids, expected, "{}", dump(&output));
}

/// A fixtures root that is a link to a package is the problem the link names, its cases too:
/// the package read once is named as the walk reached it.
#[test]
fn a_fixtures_root_linked_to_a_package_is_named_by_the_link() {
    let project = Project::new();
    project.file("real/hello/problem.yaml", "name: Hello\n");
    project.file("real/hello/data/secret/1.in", "1\n");
    project.file("real/hello/data/secret/1.ans", "1\n");
    std::os::unix::fs::symlink("real/hello", project.path().join("fx")).unwrap();
    let output = project.grundy(&["list", "--fixtures", "fx", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let lines = crate::reports::json_lines(&output);
    let fx = lines.iter().find(|line| line["problem"] == "fx");
    let fx = fx.unwrap_or_else(|| panic!("no line of fx\n{}", dump(&output)));
    assert_eq!(json!([fx["kind"], fx["cases"]]), json!(["package", 1]));
    let output = project.grundy(&["list", "--fixtures", "fx", "--cases", "--format", "json"]);
    let cases: Vec<Value> = (crate::reports::json_lines(&output).iter())
        .map(|line| line["case"].clone())
        .collect();
    assert_eq!(cases, [json!("fx/secret/1")], "{}", dump(&output));
}
