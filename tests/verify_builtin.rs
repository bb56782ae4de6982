//! `grundy verify` with no argument in this project: the built-in problems as packages, with the
//! submissions planted under `problems/<module>/submissions/` and, for those that fail only
//! beyond the original limits, `problems/<module>/extended/submissions/`. By default every
//! planted submission is judged on the cases within the original limits (the `extended/` groups
//! are validated, not judged): each must get the verdict its folder names, and those below
//! `extended/` must be accepted. Under `--extended` the latter must get their folder's verdict,
//! and the accepted ones must pass the extended cases too. Every wrong submission must be caught
//! by some case; the book's table of them (docs/src/setter/packages.md) must count what is
//! planted. The planted programs are compiled once into `target/grundy-build/` and taken from
//! there afterwards.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use common::{code, dump, BUILT_IN_PROBLEMS};
use serde_json::Value;

#[test]
fn every_planted_submission_gets_the_verdict_its_folder_names() {
    let output = verify(&[]);
    let (summary, submissions) = judged(&output);
    assert_eq!(
        summary["left_out"]["beyond_original_limits"],
        extended_fixtures(),
        "every valid case below an extended/ group is left out: {summary}"
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut counts = BTreeMap::new();
    for submission in &submissions {
        let id = submission["submission"].as_str().unwrap();
        let package = submission["package"].as_str().unwrap();
        seen.insert(package.to_string());
        let mut folders = id.split('/');
        let folder = folders.next().unwrap();
        let column = folder.to_string();
        *counts.entry((package.to_string(), column)).or_insert(0) += 1;
        // Beyond-original solutions are right for the original limits.
        let folder = match folder {
            "extended" => "accepted",
            folder => folder,
        };
        assert_verdict(package, id, folder, submission);
    }
    for problem in BUILT_IN_PROBLEMS {
        assert!(seen.contains(problem), "{problem} has planted submissions");
    }
    assert!(submissions.len() >= 49, "{}", submissions.len());
    assert_eq!(
        book_counts(),
        counts,
        "the book's table of planted submissions (problem, folder: count) is out of step"
    );
}

#[test]
fn under_extended_the_extended_cases_catch_what_they_were_planted_for() {
    let output = verify(&[
        "--extended",
        "--submission",
        "accepted/*",
        "--submission",
        "extended/*/*",
    ]);
    let (summary, submissions) = judged(&output);
    assert_eq!(
        summary["left_out"]["beyond_original_limits"], 0,
        "{summary}"
    );
    let mut beyond = 0;
    for submission in &submissions {
        let id = submission["submission"].as_str().unwrap();
        let package = submission["package"].as_str().unwrap();
        let folder = match id.split_once('/').unwrap() {
            ("extended", rest) => {
                beyond += 1;
                rest.split('/').next().unwrap()
            }
            (folder, _) => folder,
        };
        assert_verdict(package, id, folder, submission);
    }
    assert!(
        beyond >= 8,
        "the beyond-original submissions were judged: {beyond}"
    );
}

/// `grundy verify --format json ARGS` in the project, which must pass.
fn verify(args: &[&str]) -> Output {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut command = assert_cmd::Command::cargo_bin("grundy").unwrap();
    let output = command
        .current_dir(project)
        .args(["verify", "--format", "json"])
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    output
}

/// The summary and the submission rows of a passing run, every package valid.
fn judged(output: &Output) -> (Value, Vec<Value>) {
    let mut lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    let summary = lines.pop().expect("a summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["failed"], 0, "{}", dump(output));
    let packages = summary["packages"].as_array().unwrap();
    assert!(packages.iter().all(|p| p["valid"] == true), "{summary}");
    lines.retain(|line| line["type"] == "submission");
    (summary, lines)
}

/// A row got the verdict `folder` names, as expected, and was caught by some case if wrong.
fn assert_verdict(package: &str, id: &str, folder: &str, submission: &Value) {
    let verdict = submission["verdict"].as_str().unwrap_or("not judged");
    let allowed: &[&str] = match folder {
        "accepted" => &["AC"],
        "wrong_answer" => &["WA"],
        "time_limit_exceeded" => &["TLE"],
        // Kattis counts a memory overrun as a run-time error.
        "run_time_error" => &["RE", "MLE"],
        folder => panic!("{package}: unexpected folder {folder}"),
    };
    assert!(
        allowed.contains(&verdict) && submission["ok"] == true,
        "{package}/{id} got {verdict}: {submission}"
    );
    let caught = submission["caught_by"].as_array().unwrap();
    assert_eq!(
        caught.is_empty(),
        verdict == "AC",
        "{package}/{id}: a wrong submission is caught by some case, a right one by none"
    );
}

/// How many valid inputs the fixtures hold below an `extended/` group, counted from the files.
fn extended_fixtures() -> usize {
    fn count(dir: &Path, below_extended: bool) -> usize {
        let mut total = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "invalid" {
                    total += count(&path, below_extended || name == "extended");
                }
            } else if below_extended && name.ends_with(".in") {
                total += 1;
            }
        }
        total
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    BUILT_IN_PROBLEMS
        .iter()
        .map(|p| count(&fixtures.join(p), false))
        .sum()
}

/// The book's table of planted submissions, "The built-in problems as packages" in
/// docs/src/setter/packages.md: per problem and verdict folder, how many; empty cells are none.
fn book_counts() -> BTreeMap<(String, String), usize> {
    let chapter = include_str!("../docs/src/setter/packages.md");
    let section = chapter
        .split("\n## The built-in problems as packages\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the book's section on the built-in problems as packages");
    let mut rows = section.lines().filter(|line| line.starts_with('|'));
    let header: Vec<&str> = rows
        .next()
        .expect("a table")
        .split('|')
        .map(str::trim)
        .collect();
    let mut counts = BTreeMap::new();
    for row in rows.skip(1) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let problem = cells[1].trim_matches('`');
        for (folder, cell) in header.iter().zip(&cells).skip(2) {
            if !cell.is_empty() {
                let count = cell.parse().expect("a count");
                counts.insert((problem.to_string(), folder.to_string()), count);
            }
        }
    }
    counts
}
