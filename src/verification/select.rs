//! Which submissions `verify` judges: `--submission PATH|GLOB` (repeatable), and a submission's
//! path given where a package goes (`grundy verify submissions/accepted/sol.cpp`), which judges
//! that submission in the package holding it. A selector that names no submission is an error
//! listing the submissions there are.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use globset::{Glob, GlobMatcher};

use super::time_limit;
use crate::discovery::Partition;
use crate::locate::Place;
use crate::model::Problem;
use crate::package::submissions::Submission;
use crate::suggest::did_you_mean;

/// `PKG` arguments split into package (or contest) folders and submissions: a file, or a
/// folder holding no `problem.yaml` inside a package, is a submission (or a folder of them),
/// and its package is among the folders.
pub fn split_targets(targets: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut folders: Vec<PathBuf> = vec![];
    let mut submissions = vec![];
    for target in targets {
        let package = match target.join(crate::locate::PACKAGE_FILE).is_file() {
            true => None,
            false => std::path::absolute(target)
                .ok()
                .filter(|path| path.exists())
                .and_then(|path| Place::around(path, None).package),
        };
        match package {
            Some(package) => {
                submissions.push(target.display().to_string());
                if !folders.contains(&package) {
                    folders.push(package);
                }
            }
            None => folders.push(target.clone()),
        }
    }
    (folders, submissions)
}

/// A selector: an existing file or folder, or a glob over the paths below `submissions/`.
enum Selector {
    Path(PathBuf),
    Glob(GlobMatcher),
}

impl Selector {
    fn new(text: &str) -> Result<Selector> {
        if let Ok(path) = std::fs::canonicalize(text) {
            return Ok(Selector::Path(path));
        }
        match Glob::new(text) {
            Ok(glob) => Ok(Selector::Glob(glob.compile_matcher())),
            Err(error) => bail!(
                "--submission `{text}` is no file or folder, nor a glob: {}",
                error.kind()
            ),
        }
    }

    /// Whether it names `submission`: the submission itself or a folder holding it, or a glob
    /// matching its path below `submissions/` (`accepted/sol.py`) or from the package
    /// (`submissions/accepted/sol.py`).
    fn names(&self, submission: &Submission) -> bool {
        match self {
            Selector::Path(given) => std::fs::canonicalize(submission.program.path.path())
                .is_ok_and(|own| own.starts_with(given)),
            Selector::Glob(glob) => {
                glob.is_match(&submission.id)
                    || glob.is_match(Path::new("submissions").join(&submission.id))
            }
        }
    }
}

/// Keeps in each problem the submissions `selectors` name (all of them without selectors).
pub fn submissions(problems: &mut [Problem], selectors: &[String]) -> Result<()> {
    if selectors.is_empty() {
        return Ok(());
    }
    let parsed: Vec<Selector> = selectors
        .iter()
        .map(|text| Selector::new(text))
        .collect::<Result<_>>()?;
    let mut used = vec![false; parsed.len()];
    let mut known: Vec<String> = vec![];
    for problem in problems.iter_mut() {
        known.extend(problem.submissions.iter().map(|s| s.id.clone()));
        problem.submissions.retain(|submission| {
            let mut keep = false;
            for (selector, used) in parsed.iter().zip(&mut used) {
                if selector.names(submission) {
                    (*used, keep) = (true, true);
                }
            }
            keep
        });
    }
    if let Some(unused) = used.iter().position(|used| !used) {
        let text = &selectors[unused];
        bail!(
            "`{text}` names no submission{}; the submissions are: {}",
            did_you_mean(text, known.iter().map(String::as_str)),
            match known.is_empty() {
                true => "none".to_string(),
                false => known.join(", "),
            }
        );
    }
    Ok(())
}

/// Keeps in each problem the submissions of one bucket of `--partition`. The unit is a
/// submission of a package, named `package/submission` (its path below `submissions/`), taken
/// in the problems' order: under `hash:` a unit keeps its bucket when packages or submissions
/// are added. A package's own checks (build, validation) are made in every bucket.
///
/// Returns, per problem, the submissions of the other buckets its time limit is computed from
/// (none where the limit is fixed): every bucket times them too ([`super::other_buckets`]), so
/// that each judges with the limit one run computes from all of them.
pub fn partition(problems: &mut [Problem], partition: Partition) -> Vec<Vec<Submission>> {
    let mut position = 0;
    let mut elsewhere = vec![];
    for problem in problems {
        let package = problem.name.clone();
        let computed = problem.limits.time_limit.is_none();
        let mut others = vec![];
        problem.submissions.retain(|submission| {
            let keep = partition.keeps(position, &format!("{package}/{}", submission.id));
            position += 1;
            if !keep && computed && time_limit::computes_the_limit(submission) {
                others.push(submission.clone());
            }
            keep
        });
        elsewhere.push(others);
    }
    elsewhere
}
