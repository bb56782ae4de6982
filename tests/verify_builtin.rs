//! `grundy verify` with no argument in this project: the built-in problems as packages, with the
//! submissions planted under `problems/<module>/submissions/`. Every planted submission must get
//! the verdict its folder names, and every wrong one must be caught by some case; the book's
//! table of them (docs/src/setter/packages.md) must count what is planted. The planted programs are compiled once into
//! `target/grundy-build/` and taken from there afterwards.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{code, dump};
use serde_json::Value;

#[test]
fn every_planted_submission_gets_the_verdict_its_folder_names() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut command = assert_cmd::Command::cargo_bin("grundy").unwrap();
    let output = command
        .current_dir(project)
        .args(["verify", "--format", "json"])
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    let (summary, submissions) = lines.split_last().expect("a summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["failed"], 0, "{}", dump(&output));
    let packages = summary["packages"].as_array().unwrap();
    assert!(packages.iter().all(|p| p["valid"] == true), "{summary}");
    let mut seen = std::collections::BTreeSet::new();
    let mut counts = BTreeMap::new();
    for submission in submissions {
        let id = submission["submission"].as_str().unwrap();
        let package = submission["package"].as_str().unwrap();
        seen.insert(package.to_string());
        let folder = id.split('/').next().unwrap().to_string();
        *counts.entry((package.to_string(), folder)).or_insert(0) += 1;
        let verdict = submission["verdict"].as_str().unwrap_or("not judged");
        let allowed: &[&str] = match id.split('/').next().unwrap() {
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
    for problem in [
        "lieges-of-legendre",
        "nim",
        "powers-of-two",
        "s-nim",
        "s-nim-duel",
        "s-nim-move",
        "set-nim",
    ] {
        assert!(seen.contains(problem), "{problem} has planted submissions");
    }
    assert!(submissions.len() >= 49, "{}", submissions.len());
    assert_eq!(
        book_counts(),
        counts,
        "the book's table of planted submissions (problem, folder: count) is out of step"
    );
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
