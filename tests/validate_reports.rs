//! `grundy validate`'s reports through the real binary: a unit per input (a package's too) and
//! one per package, counted one kind at a time, in the human report, JSON lines and JUnit, and
//! a run cut short by Ctrl-C still reported, marked cancelled.

use crate::common;

use common::{
    cancelled_closing_line, cancelled_summary, closing_line, code, dump, stdout, Project,
};
use serde_json::{json, Value};

use crate::reports::json_lines;

/// A 2025-09 package with two inputs and the input validators `validators` (name, source).
fn package(project: &Project, validators: &[(&str, &str)]) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: P\ntype: pass-fail\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/bad.in", "x\n"),
        ("data/secret/bad.ans", "1\n"),
    ];
    for (path, text) in files {
        project.file(&format!("pkg/{path}"), text);
    }
    for (name, source) in validators {
        project.file(&format!("pkg/input_validators/{name}"), source);
    }
}

/// Two validators that both reject the input `x`.
const DIGITS: (&str, &str) = (
    "digits.py",
    "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
);
const SHORT: (&str, &str) = (
    "short.py",
    "import sys\nsys.exit(42 if sys.stdin.read().strip() != 'x' else 43)\n",
);

/// `validate` counts inputs: an input two validators reject fails once (it said `0 passed, 2
/// failed` of 2 inputs, counting the failed checks as inputs).
#[test]
fn an_input_that_two_validators_reject_fails_once() {
    let project = Project::new();
    package(&project, &[DIGITS, SHORT]);
    let output = project.grundy(&["validate", "pkg"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains("Validated 2 inputs (0 deliberately invalid).\n"),
        "{text}"
    );
    // Each validator that rejected it is named.
    for validator in ["digits.py", "short.py"] {
        let rejected =
            format!("pkg: input secret/bad is rejected by the input validator {validator}");
        assert!(text.contains(&rejected), "{text}");
    }
    assert_eq!(closing_line(&output), "1 passed, 1 failed");
}

/// `--format json`: a line per input, then one per package, then the summary, which counts
/// inputs and the packages apart; `--junit` a test case per input and a failing `(package)`.
#[test]
fn json_lines_and_junit_have_every_input_and_the_package() {
    let project = Project::new();
    package(&project, &[DIGITS]);
    let junit = project.path().join("report.xml");
    let junit_arg = junit.display().to_string();
    let args = ["validate", "pkg", "--format", "json", "--junit", &junit_arg];
    let output = project.grundy(&args);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let lines = json_lines(&output);
    let kinds: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["case", "case", "package", "summary"],
        "{}",
        dump(&output)
    );
    let found: Vec<(&Value, &Value)> = lines[..2]
        .iter()
        .map(|l| (&l["id"], &l["finding"]))
        .collect();
    let id = |case: &str| json!({"problem": "pkg", "subject": null, "case": case});
    assert_eq!(
        found,
        [
            (&id("sample/1"), &json!("valid")),
            (&id("secret/bad"), &json!("failed"))
        ]
    );
    assert_eq!(lines[2]["status"], "invalid", "{}", lines[2]);
    let summary = &lines[3];
    let counted = ["command", "unit", "passed", "failed", "total"].map(|k| &summary[k]);
    let expected = [
        json!("validate"),
        json!("case"),
        json!(1),
        json!(1),
        json!(2),
    ];
    assert_eq!(counted, expected.each_ref(), "{summary}");
    assert_eq!(summary["totals"]["package"]["failed"], 1, "{summary}");

    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    let document = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<(&str, bool)> = document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| {
            let failed = n.children().any(|c| c.has_tag_name("failure"));
            (n.attribute("name").unwrap(), failed)
        })
        .collect();
    assert_eq!(
        cases,
        [
            ("pkg/sample/1", false),
            ("pkg/secret/bad", true),
            ("(package)", true)
        ],
        "{xml}"
    );
}

/// Ctrl-C while a validator runs ends `validate` at once, its reports written and marked
/// cancelled, with exit status 130 (it ended quietly, reporting nothing).
#[test]
fn ctrl_c_ends_validate_with_its_reports_marked_cancelled() {
    let project = Project::new();
    package(&project, &[("sleeper.py", "import time\ntime.sleep(60)\n")]);
    let marker = project.path().display().to_string();
    let sleeping = || common::running(&marker, "sleeper.py");
    let output = project.interrupted(&["validate", "pkg"], sleeping);
    assert_eq!(cancelled_closing_line(&output), "0 passed, 0 failed");
    assert!(!sleeping(), "the validator outlived validate");

    let junit = project.path().join("report.xml");
    let junit_arg = junit.display().to_string();
    let args = ["validate", "pkg", "--format", "json", "--junit", &junit_arg];
    let output = project.interrupted(&args, sleeping);
    cancelled_summary(&output);
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    assert!(xml.contains(r#"name="cancelled" value="true""#), "{xml}");
}
