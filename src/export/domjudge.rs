//! What DOMjudge's problem import reads of a package (its `ImportProblemService`, DOMjudge 8.0
//! to 10.0): `problem.yaml` (`name`, `type` or `validation`, `validator_flags`, `limits`),
//! `domjudge-problem.ini` (`timelimit`, which overrides nothing `problem.yaml` sets and fills
//! in what a package computes), `data/sample/` and `data/secret/` (each `.in` with its `.ans`,
//! groups as folders), one output validator's files (`output_validators/` or
//! `output_validator/`), attachments, and the submissions below `submissions/<verdict>/`, whose
//! folder alone says what DOMjudge expects of them: `accepted`, `wrong_answer`,
//! `time_limit_exceeded`, `run_time_error` (an `@EXPECTED_RESULTS@` tag in such a submission
//! must name that folder's verdict, so a tag grundy already holds to goes as it is). A
//! submission of any other folder (`rejected/`, `mixed/`, a `submissions.yaml` rule) has no
//! folder DOMjudge reads as its verdict: it is left out, and said to be.

use std::time::Duration;

use super::Entry;
// The folders whose name alone is a verdict, to DOMjudge as to the format.
use crate::package::submissions::NAMED_FOLDERS as VERDICT_FOLDERS;

/// The ini the archive carries instead of the package's own (and of its `.timelimit`).
const INI: &str = "domjudge-problem.ini";

/// The folders DOMjudge imports whole.
const FOLDERS: &[&str] = &[
    "data/sample/",
    "data/secret/",
    "output_validators/",
    "output_validator/",
    "attachments/",
];

/// Whether DOMjudge's import reads the package file at `path` (below the package, `/`-separated).
pub fn imports(path: &str) -> bool {
    path == "problem.yaml"
        || FOLDERS.iter().any(|folder| path.starts_with(folder))
        || submission_folder(path).is_some_and(|folder| VERDICT_FOLDERS.contains(&folder))
}

/// The folder below `submissions/` of a submission's file.
fn submission_folder(path: &str) -> Option<&str> {
    let (folder, _) = path.strip_prefix("submissions/")?.split_once('/')?;
    Some(folder)
}

/// The submissions' files among the paths left out: a note names them.
pub fn left_out(skipped: Vec<String>) -> Vec<String> {
    skipped
        .into_iter()
        .filter(|path| submission_folder(path).is_some())
        .collect()
}

/// The `domjudge-problem.ini` of the archive: the time limit the package verified with, in
/// seconds (DOMjudge's unit), when it has one.
pub fn ini(time_limit: Option<Duration>) -> Entry {
    let text = match time_limit {
        Some(limit) => format!("timelimit = {}\n", seconds(limit)),
        None => String::new(),
    };
    Entry {
        name: INI.to_string(),
        bytes: text.into_bytes(),
        executable: false,
    }
}

/// `limit` in seconds, to the millisecond, without trailing zeros: `1`, `0.25`, `2.5`.
fn seconds(limit: Duration) -> String {
    let millis = limit.as_millis();
    let (whole, part) = (millis / 1000, millis % 1000);
    if part == 0 {
        return whole.to_string();
    }
    let part = format!("{part:03}");
    format!("{whole}.{}", part.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_written_without_trailing_zeros() {
        assert_eq!(seconds(Duration::from_secs(2)), "2");
        assert_eq!(seconds(Duration::from_millis(250)), "0.25");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5");
        assert_eq!(seconds(Duration::from_millis(3007)), "3.007");
    }

    #[test]
    fn imports_what_domjudge_reads_and_nothing_else() {
        for path in [
            "problem.yaml",
            "data/sample/1.in",
            "data/secret/group/2.ans",
            "output_validators/check/check.cpp",
            "output_validator/validate.py",
            "attachments/tool.py",
            "submissions/accepted/a.py",
            "submissions/time_limit_exceeded/slow/main.cpp",
        ] {
            assert!(imports(path), "{path}");
        }
        for path in [
            "domjudge-problem.ini",
            ".timelimit",
            "data/invalid_input/1.in",
            "data/secret.in",
            "generators/generators.yaml",
            "input_validators/v.py",
            "submissions/rejected/a.py",
            "submissions/submissions.yaml",
            "problem_statement/problem.en.tex",
        ] {
            assert!(!imports(path), "{path}");
        }
    }

    #[test]
    fn only_submissions_are_named_as_left_out() {
        let skipped = vec![
            "generators/gen.py".to_string(),
            "submissions/mixed/m.py".to_string(),
            "submissions/submissions.yaml".to_string(),
        ];
        assert_eq!(
            left_out(skipped),
            vec!["submissions/mixed/m.py".to_string()]
        );
    }
}
