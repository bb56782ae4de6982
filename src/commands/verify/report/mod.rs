//! What `verify` prints: per problem its warnings, what was built and validated, its time limit,
//! a table of submissions (verdict, expected, slowest case, the cases that caught it), what was
//! wrong, what could not be checked and the judge errors of the host, and its [`Status`]
//! ([`human`]); one JSON object per submission and a summary ([`json`]); a JUnit file
//! with a test suite per problem and a test case per submission ([`junit`]). Text from the
//! packages and the programs is shown through [`crate::escape`].

mod human;
mod json;
mod junit;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use super::outcome::Row;
use crate::cli::Format;

/// Everything reported about one problem.
#[derive(Debug)]
pub struct ProblemReport {
    pub name: String,
    /// Where it comes from: the package folder, or the built-in problem's fixtures.
    pub origin: String,
    pub warnings: Vec<String>,
    /// What makes the package invalid.
    pub errors: Vec<String>,
    /// What could not be checked (a validator that did not run): the package is then not
    /// known to be valid.
    pub unchecked: Vec<String>,
    /// Its programs the host failed to build (judge errors), each with why.
    pub judge_errors: Vec<String>,
    pub build: String,
    pub validation: String,
    pub time_limit: String,
    pub rows: Vec<Row>,
}

/// What verification made of a package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Valid,
    /// Something is wrong with it.
    Invalid,
    /// Nothing found wrong, but not everything could be checked.
    NotVerified,
}

impl Status {
    /// In words, for every report.
    pub fn name(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Invalid => "invalid",
            Status::NotVerified => "not verified",
        }
    }
}

impl ProblemReport {
    pub fn status(&self) -> Status {
        if !self.errors.is_empty() {
            Status::Invalid
        } else if !self.unchecked.is_empty() {
            Status::NotVerified
        } else {
            Status::Valid
        }
    }
}

/// The whole run.
#[derive(Debug, Default)]
pub struct Totals {
    /// Submissions as expected, and valid packages.
    pub passed: usize,
    /// Submissions not as expected, and packages not valid.
    pub failed: usize,
    /// Submissions not judged.
    pub skipped: usize,
    /// Programs the host failed to build: the run is incomplete.
    pub judge_errors: usize,
    /// Packages that could not be read: the error, located.
    pub unreadable: Vec<String>,
    pub wall_time: Duration,
    /// The run was cut short (Ctrl-C): nothing was reported of its problems.
    pub cancelled: bool,
}

impl Totals {
    pub fn count(reports: &[ProblemReport], unreadable: Vec<String>, wall_time: Duration) -> Self {
        let mut totals = Totals {
            unreadable,
            wall_time,
            ..Totals::default()
        };
        for report in reports {
            if report.status() == Status::Valid {
                totals.passed += 1;
            } else {
                totals.failed += 1;
            }
            totals.judge_errors += report.judge_errors.len();
            for row in &report.rows {
                match row.ok {
                    Some(true) => totals.passed += 1,
                    Some(false) => totals.failed += 1,
                    None => totals.skipped += 1,
                }
            }
        }
        totals.failed += totals.unreadable.len();
        totals
    }
}

/// Prints the reports in `format` and writes the JUnit file when asked.
pub fn report(
    reports: &[ProblemReport],
    totals: &Totals,
    format: Format,
    junit: Option<&PathBuf>,
    verbose: bool,
) -> Result<()> {
    let printed = match format {
        Format::Human => human::print(reports, totals, verbose),
        Format::Json => json::print(reports, totals),
    };
    let written = junit.map_or(Ok(()), |path| junit::write(path, reports, totals));
    printed.and(written)
}
