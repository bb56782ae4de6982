//! `grundy verify CONTEST` through the real binary: a folder of packages in the order and with
//! the labels of its `problems.yaml` (a located error when it cannot be used, the packages still
//! verified), the contest table at the end of the human report and as the JSON `contest` line,
//! and `--partition` splitting the submissions of the contest into buckets that together hold
//! each once. The packages are tiny: Python submissions on a case or two, a fixed time limit.

use std::collections::BTreeSet;

use crate::common;

use common::{code, dump, stderr, stdout, verify_json as json, Project};
use serde_json::{json, Value};

/// A package `name` of the contest: a sample and a secret case, a fixed limit, an accepted and
/// a wrong-answer submission.
pub(crate) fn package(project: &Project, name: &str) {
    project.file(
        &format!("contest/{name}/problem.yaml"),
        "problem_format_version: 2023-07-draft\nname: P\nlimits:\n  time_limit: 1\n",
    );
    for group in ["sample", "secret"] {
        project.file(&format!("contest/{name}/data/{group}/1.in"), "");
        project.file(&format!("contest/{name}/data/{group}/1.ans"), "1\n");
    }
    let submissions = format!("contest/{name}/submissions");
    project.file(&format!("{submissions}/accepted/ok.py"), "print(1)\n");
    project.file(&format!("{submissions}/wrong_answer/two.py"), "print(2)\n");
}

fn lines(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn problems_yaml_orders_and_labels_the_contest_table() {
    let project = Project::new();
    package(&project, "apple");
    package(&project, "zebra");
    package(&project, "mango");
    // mango is left out of the list: not part of the contest.
    let list = "- id: zebra\n  label: A\n- id: apple\n  label: B\n";
    project.file("contest/problems.yaml", list);
    let output = project.verify(&["contest", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stderr(&output).contains("mango: ") && stderr(&output).contains("does not list it"),
        "{}",
        dump(&output)
    );
    let all = lines(&output);
    let contest: Vec<&Value> = all.iter().filter(|l| l["type"] == "contest").collect();
    assert_eq!(contest.len(), 1, "{}", dump(&output));
    let problems = contest[0]["problems"].as_array().unwrap();
    let order: Vec<(&str, &str)> = problems
        .iter()
        .map(|p| (p["label"].as_str().unwrap(), p["package"].as_str().unwrap()))
        .collect();
    assert_eq!(order, [("A", "zebra"), ("B", "apple")]);
    let zebra = &problems[0];
    let groups = json!([{"group": "sample", "cases": 1}, {"group": "secret", "cases": 1}]);
    assert_eq!(zebra["groups"], groups);
    let submissions = json!([
        {"expected": "AC", "submissions": 1, "as_expected": 1},
        {"expected": "WA", "submissions": 1, "as_expected": 1},
    ]);
    assert_eq!(zebra["submissions"], submissions);
    assert_eq!(zebra["time_limit_ms"], 1000.0);
    assert_eq!(zebra["status"], "valid");
    let missing = json!(["a time-limit submission", "an input validator"]);
    assert_eq!(zebra["missing"], missing);
    // The contest line comes before the summary, and the submissions in the contest's order.
    assert_eq!(all[all.len() - 2]["type"], "contest");
    let (rows, _) = json(&output);
    assert_eq!(rows[0]["package"], "zebra", "{}", dump(&output));

    let human = project.verify(&["contest"]);
    assert_eq!(code(&human), 0, "{}", dump(&human));
    let text = stdout(&human);
    let table = text.split("Contest:\n").nth(1).expect("a contest table");
    let zebra = table.lines().nth(1).unwrap();
    let words: Vec<&str> = zebra.split_whitespace().collect();
    assert_eq!(&words[..2], ["A", "zebra"], "{table}");
    assert!(
        zebra.contains("AC 1/1, WA 1/1") && zebra.ends_with("valid"),
        "{table}"
    );
    assert!(table.lines().nth(2).unwrap().contains("B  "), "{table}");
}

#[test]
fn without_problems_yaml_a_contest_is_labelled_in_folder_order() {
    let project = Project::new();
    package(&project, "beta");
    package(&project, "alpha");
    let output = project.verify(&["contest", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let all = lines(&output);
    let contest = all.iter().find(|l| l["type"] == "contest").unwrap();
    let labels: Vec<(&str, &str)> = contest["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["label"].as_str().unwrap(), p["package"].as_str().unwrap()))
        .collect();
    assert_eq!(labels, [("A", "alpha"), ("B", "beta")]);
}

#[test]
fn a_problems_yaml_that_cannot_be_used_is_located_and_the_packages_still_verified() {
    let project = Project::new();
    package(&project, "alpha");
    project.file(
        "contest/problems.yaml",
        "- id: alpha\n- id: ghost\n  label: G\n",
    );
    let output = project.verify(&["contest"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains("contest/problems.yaml:2:")
            && text.contains("problem `ghost` has no package folder in the contest"),
        "{}",
        dump(&output)
    );
    assert_eq!(
        common::closing_line(&output),
        "2 submissions as expected, 0 not"
    );
}

/// The submissions of each bucket, by `package/submission`.
fn bucket(project: &Project, partition: &str) -> BTreeSet<String> {
    let output = project.verify(&["contest", "--format", "json", "--partition", partition]);
    assert!(code(&output) <= 1, "{}", dump(&output));
    let (rows, _) = json(&output);
    rows.iter()
        .map(|row| {
            format!(
                "{}/{}",
                row["package"].as_str().unwrap(),
                row["submission"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn partition_splits_the_contests_submissions_into_disjoint_buckets() {
    let project = Project::new();
    package(&project, "alpha");
    package(&project, "beta");
    let all: BTreeSet<String> = ["alpha", "beta"]
        .iter()
        .flat_map(|p| ["accepted/ok.py", "wrong_answer/two.py"].map(|s| format!("{p}/{s}")))
        .collect();
    for kind in ["slice", "hash"] {
        for count in 1..=3 {
            let mut seen = BTreeSet::new();
            for index in 1..=count {
                for unit in bucket(&project, &format!("{kind}:{index}/{count}")) {
                    assert!(
                        seen.insert(unit.clone()),
                        "{unit} in two buckets of {kind}:{count}"
                    );
                }
            }
            assert_eq!(seen, all, "{kind}:_/{count}");
        }
    }
    // Round-robin in the contest's order; the summary says which bucket of how many.
    let first = bucket(&project, "slice:1/2");
    let output = project.verify(&["contest", "--format", "json", "--partition", "slice:1/2"]);
    let (_, summary) = json(&output);
    assert_eq!(
        (
            &summary["partition"],
            &summary["suite_total"],
            &summary["total"]
        ),
        (&json!("slice:1/2"), &json!(4), &json!(2)),
        "{summary}"
    );
    let human = project.verify(&["contest", "--partition", "slice:1/2"]);
    assert!(
        stdout(&human).contains("Bucket slice:1/2 held 2 of the 4 submission(s) selected."),
        "{}",
        dump(&human)
    );
    let expected: BTreeSet<String> = ["alpha/accepted/ok.py", "beta/accepted/ok.py"]
        .map(String::from)
        .into();
    assert_eq!(first, expected);
    // A hash bucket keeps its submissions when a package is added.
    let before = bucket(&project, "hash:2/3");
    package(&project, "gamma");
    let after = bucket(&project, "hash:2/3");
    assert!(before.is_subset(&after), "{before:?} ⊄ {after:?}");
    let wrong = project.verify(&["contest", "--partition", "slice:3/2"]);
    assert_eq!(code(&wrong), 2, "{}", dump(&wrong));
    assert!(
        stderr(&wrong).contains("slice:I/N or hash:I/N"),
        "{}",
        dump(&wrong)
    );
}

/// A package that cannot be read (an input validator linked out of it) and whose
/// `generators.yaml` therefore cannot be used either is one unreadable package, named by its
/// folder, not by the file the error is in, and counted once among the contest's packages.
#[test]
fn a_package_unreadable_for_two_reasons_is_one_failed_package() {
    let project = Project::new();
    package(&project, "fine");
    package(&project, "linked");
    project.file(
        "contest/linked/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      '2':\n        in: \"\"\n",
    );
    project.file("outside.py", "print('hi')\n");
    std::fs::create_dir_all(project.path().join("contest/linked/input_validators")).unwrap();
    std::os::unix::fs::symlink(
        project.path().join("outside.py"),
        project.path().join("contest/linked/input_validators/v.py"),
    )
    .unwrap();
    let output = project.verify(&["contest", "--format", "json"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let all = lines(&output);
    let summary = all.last().unwrap();
    assert_eq!(
        summary["unreadable_packages"],
        json!(["contest/linked"]),
        "{summary}"
    );
    assert_eq!(
        summary["totals"]["package"],
        json!({"failed": 1, "passed": 1, "skipped": 0}),
        "{summary}"
    );
}
