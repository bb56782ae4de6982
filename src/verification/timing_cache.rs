//! What a computed time limit comes from, kept beside the builds so that every command judges a
//! package that fixes no time limit at the same limit without timing its accepted submissions
//! each time: the slowest CPU time of the runs the limit is computed from
//! ([`super::time_limit::computes_the_limit`]), under a key of everything that time depends on
//! ([`key`]): those submissions' build keys, the output validator's (an interactor's speed is
//! the program's wait), the passes a case may take, and the judged cases' inputs and answers,
//! by content. `verify` and `timelimit` record what they time; `check`, `list` and `stress`
//! read it (and `check` and `stress` time the runs themselves, and record them, when nothing is
//! recorded). The limit is made from the time by the package's rule as it is now, so a changed
//! `ac_to_time_limit` counts at once. The file is `<cache>/time-limits/<key>`, one line,
//! written atomically; one that cannot be read is no record.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::time_limit::computes_the_limit;
use crate::build::{cache_folder, CacheError};
use crate::files::beneath::TreePath;
use crate::files::{Existing, Folder, WriteError};
use crate::model::Problem;
use crate::validation::checkers::output_validator;

/// The folder of the records, in the build cache.
const FOLDER: &str = "time-limits";
/// A record's one line: this, then the nanoseconds.
const RECORD: &str = "slowest accepted run (ns): ";
/// The largest record read.
const RECORD_BYTES: u64 = 256;

/// Why a timing could not be recorded (the host's failure; it is timed again next time).
#[derive(Debug, thiserror::Error)]
pub enum NotRecorded {
    #[error(transparent)]
    Folder(CacheError),
    #[error(transparent)]
    Write(WriteError),
}

/// The key of `problem`'s timing: a SHA-256 over everything the slowest accepted run depends on,
/// each part length-prefixed; `None` when an input or answer cannot be read (its case fails
/// anyway, and nothing is kept).
pub fn key(problem: &Problem) -> Option<String> {
    let mut hash = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    field(b"grundy time limit 1");
    for submission in problem.submissions.iter().filter(|s| computes_the_limit(s)) {
        field(submission.id.as_bytes());
        field(submission.program.cache_key().as_bytes());
    }
    let validator = output_validator(problem).map(|program| program.cache_key());
    field(validator.unwrap_or_default().as_bytes());
    field(&problem.passes.to_le_bytes());
    for case in &problem.cases {
        field(case.id().as_bytes());
        field(&digest(&case.case.input)?);
        match &case.case.expected {
            Some(answer) => field(&digest(answer)?),
            None => field(b"no answer"),
        }
    }
    let digest = hash.finalize();
    Some(digest.iter().take(16).map(|b| format!("{b:02x}")).collect())
}

/// The slowest accepted run of `problem` recorded under `key`, if an earlier command timed it.
pub fn recorded(problem: &Problem, key: &str) -> Option<Duration> {
    let mut text = String::new();
    let file = std::fs::File::open(path(problem, key)).ok()?;
    file.take(RECORD_BYTES).read_to_string(&mut text).ok()?;
    let nanos = text.strip_prefix(RECORD)?.trim_end().parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Records `slowest` as the slowest accepted run of `problem` under `key`, over what was there.
pub fn record(problem: &Problem, key: &str, slowest: Duration) -> Result<(), NotRecorded> {
    let file = path(problem, key);
    let folder = file.parent().expect("a record lies in the records' folder");
    std::fs::create_dir_all(folder)
        .map_err(|e| NotRecorded::Folder(CacheError::new("create the folder", folder, e)))?;
    let line = format!("{RECORD}{}\n", slowest.as_nanos());
    let name = file.file_name().expect("a record has a name");
    Folder::open(folder)
        .and_then(|records| records.write(name, line.as_bytes(), Existing::Replace))
        .map_err(NotRecorded::Write)
}

/// Where `problem`'s record under `key` is.
fn path(problem: &Problem, key: &str) -> PathBuf {
    cache_folder(&problem.root).join(FOLDER).join(key)
}

/// The SHA-256 of a file of the package, read through the package's root; `None` when it
/// cannot be read to its end.
fn digest(file: &TreePath) -> Option<[u8; 32]> {
    let mut opened = file.open().ok()?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0; 64 << 10];
    loop {
        match opened.read(&mut buffer) {
            Ok(0) => return Some(hash.finalize().into()),
            Ok(read) => hash.update(&buffer[..read]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::test_support::{tree, write};

    const PACKAGE: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: T\n",
        ),
        ("data/secret/1.in", "1\n"),
        ("data/secret/1.ans", "1\n"),
        ("submissions/accepted/a.py", "print(input())\n"),
        ("submissions/wrong_answer/w.py", "print(2)\n"),
    ];

    fn problem(dir: &std::path::Path) -> Problem {
        Problem::from_package(crate::package::read_package(dir).unwrap())
    }

    #[test]
    fn the_key_follows_what_the_accepted_runs_depend_on_and_nothing_else() {
        let dir = tree(PACKAGE);
        let first = key(&problem(dir.path())).unwrap();
        assert_eq!(key(&problem(dir.path())), Some(first.clone()), "stable");
        // A submission the limit does not come from is no part of it.
        write(
            dir.path(),
            &[("submissions/wrong_answer/w.py", "print(3)\n")],
        );
        assert_eq!(key(&problem(dir.path())), Some(first.clone()));
        write(dir.path(), &[("data/secret/1.ans", "1 \n")]);
        let answer = key(&problem(dir.path())).unwrap();
        assert_ne!(answer, first, "an answer");
        write(
            dir.path(),
            &[("submissions/accepted/a.py", "print(input()) \n")],
        );
        assert_ne!(
            key(&problem(dir.path())).unwrap(),
            answer,
            "an accepted submission"
        );
    }

    #[test]
    fn a_recorded_timing_is_read_back_and_replaced_by_a_newer_one() {
        let dir = tree(PACKAGE);
        let problem = problem(dir.path());
        // A key of its own: no other test's record.
        let key = format!("{}-test-{}", key(&problem).unwrap(), std::process::id());
        assert_eq!(recorded(&problem, &key), None);
        record(&problem, &key, Duration::from_millis(123)).unwrap();
        assert_eq!(recorded(&problem, &key), Some(Duration::from_millis(123)));
        record(&problem, &key, Duration::from_nanos(456_789)).unwrap();
        assert_eq!(
            recorded(&problem, &key),
            Some(Duration::from_nanos(456_789))
        );
        std::fs::remove_file(path(&problem, &key)).unwrap();
    }
}
