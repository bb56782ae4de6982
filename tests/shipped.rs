//! The built-in problems from any folder: where there is no checkout, package, runner.toml or
//! `fixtures/`, `list`, `check` and `validate` judge the fixtures and settings the binary ships,
//! and say so. The oracle is the checkout's own `fixtures/`, read here from disk.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::*;

/// A folder outside any checkout, and a cache of its own for the unpacked fixtures.
struct Elsewhere {
    here: tempfile::TempDir,
    cache: tempfile::TempDir,
}

impl Elsewhere {
    fn new() -> Self {
        Elsewhere {
            here: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
        }
    }

    fn grundy(&self, args: &[&str]) -> Output {
        let mut command = assert_cmd::Command::cargo_bin("grundy").unwrap();
        command
            .current_dir(self.here.path())
            .args(args)
            .env("NO_COLOR", "1")
            .env("XDG_CACHE_HOME", self.cache.path())
            .env_remove("CI");
        command.output().expect("the grundy binary runs")
    }
}

/// The checkout's fixtures of `problem`: each case's id (`edge/smallest`) and its answer.
fn cases_on_disk(problem: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(problem);
    let mut cases = Vec::new();
    let mut folders: Vec<PathBuf> = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(&root).unwrap().to_str().unwrap();
            if path.is_dir() {
                folders.push(path);
            } else if let Some(id) = relative.strip_suffix(".in") {
                // An `invalid/` case has no answer.
                let answer =
                    std::fs::read_to_string(path.with_extension("out")).unwrap_or_default();
                cases.push((id.to_string(), answer));
            }
        }
    }
    cases.sort();
    cases
}

#[test]
fn list_names_the_built_in_problems_and_where_they_come_from() {
    let elsewhere = Elsewhere::new();
    let listed = elsewhere.grundy(&["list"]);
    assert_eq!(code(&listed), 0, "{}", dump(&listed));
    for problem in BUILT_IN_PROBLEMS {
        let row = stdout(&listed)
            .lines()
            .any(|l| l.starts_with(&format!("{problem} ")));
        assert!(row, "no row of {problem}\n{}", dump(&listed));
    }
    assert!(
        stderr(&listed).contains("come from this grundy binary"),
        "{}",
        dump(&listed)
    );
    let root = elsewhere.cache.path().canonicalize().unwrap();
    assert!(
        stdout(&listed).contains(&format!("fixtures root: {}", root.display())),
        "{}",
        dump(&listed)
    );
}

/// `check s-nim` judges every case the checkout has of it with the built-in solver; a program
/// that always answers `L` passes exactly the cases whose answer is `L` and fails the others.
#[test]
fn check_judges_the_shipped_cases_as_the_checkouts() {
    let elsewhere = Elsewhere::new();
    let on_disk = cases_on_disk("s-nim");
    let checked = elsewhere.grundy(&["check", "s-nim", "--format", "json"]);
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    let judged = crate::reports::json_lines(&checked);
    let summary = judged.iter().find(|l| l["type"] == "summary").unwrap();
    assert_eq!(summary["passed"], on_disk.len(), "{}", dump(&checked));
    assert_eq!(summary["failed"], 0, "{}", dump(&checked));

    let wrong = elsewhere.grundy(&["check", "s-nim", "--exec", "echo L", "--format", "json"]);
    assert_eq!(code(&wrong), 1, "{}", dump(&wrong));
    let mut verdicts: Vec<(String, String)> = crate::reports::json_lines(&wrong)
        .iter()
        .filter(|l| l["type"] == "case")
        .map(|l| {
            let id = l["id"]["case"].as_str().unwrap().to_string();
            (id, l["verdict"].as_str().unwrap().to_string())
        })
        .collect();
    verdicts.sort();
    // A program given with `--exec` is not judged on the `invalid/` and `extended/` groups
    // unless asked.
    let expected: Vec<(String, String)> = on_disk
        .iter()
        .filter(|(id, _)| !id.starts_with("invalid/") && !id.starts_with("extended/"))
        .map(|(id, answer)| {
            let right = answer.split_whitespace().eq(["L"]);
            (id.clone(), if right { "AC" } else { "WA" }.to_string())
        })
        .collect();
    assert_eq!(verdicts, expected, "{}", dump(&wrong));
    assert!(expected.iter().any(|(_, v)| v == "AC") && expected.iter().any(|(_, v)| v == "WA"));
}

/// A folder of the user's own wins: a `fixtures/` here is the fixtures root, as in a checkout.
#[test]
fn a_fixtures_folder_here_wins_over_the_shipped_one() {
    let elsewhere = Elsewhere::new();
    let own = elsewhere.here.path().join("fixtures/nim");
    std::fs::create_dir_all(&own).unwrap();
    // 1 xor 2 xor 3 is 0: the player to move loses.
    std::fs::write(own.join("one.in"), "1 2 3\n").unwrap();
    std::fs::write(own.join("one.out"), "lose\n").unwrap();
    let checked = elsewhere.grundy(&["check"]);
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    assert_eq!(closing_line(&checked), "1 passed, 0 failed");
    assert!(!stderr(&checked).contains("come from this grundy binary"));
}

/// Outside a checkout, a name that is neither a folder nor a built-in problem is named as given.
#[test]
fn a_missing_problem_elsewhere_is_named() {
    let elsewhere = Elsewhere::new();
    let missing = elsewhere.grundy(&["check", "snim-typo"]);
    assert_eq!(code(&missing), 2, "{}", dump(&missing));
    assert!(
        stderr(&missing).contains("`snim-typo`"),
        "{}",
        dump(&missing)
    );
}
