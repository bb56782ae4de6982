//! What `grundy generate` reports of a package (what generating it did, as data, its failures
//! and warnings typed: [`super::findings`]), and its printing: failures, files no rule describes
//! and warnings to stderr, every text from a program or a package made safe to show; then one
//! line of counts on stdout. Beside what it reports, as the reporters cannot read generation's
//! types (they sit below it); `commands::generate` prints it, and `verify` notes it.

use super::findings::{Unmade, Warning};
use crate::escape::{visible, visible_line};
use crate::reporting::findings::Fault;
use crate::reporting::LostReport;

/// What generating one package did.
#[derive(Debug, Default)]
pub struct Generated {
    pub package: String,
    /// Cases made (again) this run.
    pub made: usize,
    /// Cases whose files were up to date.
    pub unchanged: usize,
    /// Included cases copied (again).
    pub included: usize,
    /// Case (or file) and why it failed.
    pub failed: Vec<(String, Unmade)>,
    /// Files no rule describes: a package's data files (`data/...`); the fixtures an earlier
    /// run made that the plan no longer lists.
    pub unlisted: Vec<String>,
    /// Whether they were removed (`--clean`).
    pub removed: bool,
    pub warnings: Vec<Warning>,
    /// Validator findings on the generated data.
    pub invalid: Vec<Fault>,
}

impl Generated {
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && self.invalid.is_empty()
    }
}

/// The report of `grundy generate`: the counts on stdout.
pub fn print(report: &Generated) -> Result<(), LostReport> {
    details(report);
    crate::reporting::print(&format!("{}\n", counts(report)))
}

/// The report of the generating `verify` does first, all on stderr (stdout is verify's report).
pub fn note(report: &Generated) {
    details(report);
    eprintln!("generated {}", counts(report));
}

fn details(report: &Generated) {
    for warning in &report.warnings {
        eprintln!("warning: {}", visible(&warning.to_string()));
    }
    for (case, why) in &report.failed {
        eprintln!("FAIL {}: {}", visible_line(case), visible(&why.to_string()));
    }
    for fault in &report.invalid {
        eprintln!("INVALID {}", visible(&fault.to_string()));
    }
    if !report.unlisted.is_empty() {
        let verb = if report.removed {
            "removed"
        } else {
            "kept (--clean removes them)"
        };
        let count = report.unlisted.len();
        eprintln!("{count} files no rule of generators.yaml describes, {verb}:");
        for file in &report.unlisted {
            eprintln!("  {}", visible_line(file));
        }
    }
}

fn counts(report: &Generated) -> String {
    let failed = report.failed.len();
    let outcome = if report.ok() { "ok" } else { "FAILED" };
    format!(
        "{}: {} made, {} unchanged, {} included, {failed} failed: {outcome}",
        visible_line(&report.package),
        report.made,
        report.unchanged,
        report.included,
    )
}
