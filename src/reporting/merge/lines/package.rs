//! A `package` line read back: a package's outcome, as the [`ProblemOutcome`] it was written
//! from, its findings as the lines they were reported as, but for the time limit's margins:
//! those its `margins` marks are dropped and its facts read ([`MarginFacts`]), for the merge
//! to compute them once from every shard's.

use serde::Deserialize;

use super::fields::{
    diagnostics, multiplier, time, time_limit, BadField, DiagnosticLine, HowLine, Wrong,
};
use crate::model::{MarginFacts, SlowestRun};
use crate::package::limits::TimeRule;
use crate::reporting::findings::{Fault, JudgingWarning, Unbuilt, Unchecked};
use crate::reporting::verified::ProblemOutcome;

#[derive(Deserialize)]
pub(in crate::reporting::merge) struct PackageLine {
    pub package: String,
    origin: String,
    errors: Vec<String>,
    unchecked: Vec<String>,
    judge_errors: Vec<String>,
    package_warnings: Vec<DiagnosticLine>,
    judging_warnings: Vec<String>,
    time_limit_ms: Option<f64>,
    time_limit_how: HowLine,
    /// Absent from a report written before the field was: its findings are then merged by
    /// their lines.
    #[serde(default)]
    margins: Option<MarginsLine>,
}

#[derive(Deserialize)]
struct MarginsLine {
    error: Option<usize>,
    thin_margin: Option<usize>,
    slowest_accepted_ms: Option<f64>,
    fastest_tle: Option<SlowestRunLine>,
    slowest_lower: Option<SlowestRunLine>,
    rule: RuleLine,
}

#[derive(Deserialize)]
struct SlowestRunLine {
    submission: String,
    time_ms: f64,
    computes_the_limit: bool,
}

#[derive(Deserialize)]
struct RuleLine {
    time_limit_ms: Option<f64>,
    ac_to_time_limit: f64,
    time_limit_to_tle: f64,
    time_resolution_ms: f64,
}

impl PackageLine {
    /// The outcome, without the time-limit findings its `margins` computed: `report merge`
    /// computes them again from every shard's facts.
    pub(in crate::reporting::merge) fn typed(mut self) -> Result<ProblemOutcome, BadField> {
        let margins = match self.margins {
            None => None,
            Some(line) => {
                drop_at(&mut self.errors, line.error, "margins.error")?;
                drop_at(
                    &mut self.judging_warnings,
                    line.thin_margin,
                    "margins.thin_margin",
                )?;
                Some(line.typed()?)
            }
        };
        Ok(ProblemOutcome {
            name: self.package,
            origin: self.origin,
            warnings: diagnostics(self.package_warnings),
            judging_warnings: (self.judging_warnings.into_iter())
                .map(JudgingWarning::Reported)
                .collect(),
            errors: self.errors.into_iter().map(Fault::Reported).collect(),
            unchecked: self
                .unchecked
                .into_iter()
                .map(Unchecked::Reported)
                .collect(),
            judge_errors: self
                .judge_errors
                .into_iter()
                .map(Unbuilt::Reported)
                .collect(),
            time_limit: time_limit(self.time_limit_ms, self.time_limit_how)?,
            margins,
        })
    }
}

/// `lines` without its line `at`, if any (`field` says where `at` was read).
fn drop_at(
    lines: &mut Vec<String>,
    at: Option<usize>,
    field: &'static str,
) -> Result<(), BadField> {
    match at {
        None => Ok(()),
        Some(at) if at < lines.len() => {
            lines.remove(at);
            Ok(())
        }
        Some(at) => Err(Wrong::Index(at).at(field)),
    }
}

impl MarginsLine {
    fn typed(self) -> Result<MarginFacts, BadField> {
        let run = |field, line: Option<SlowestRunLine>| {
            line.map(|run| {
                Ok::<_, BadField>(SlowestRun {
                    time: time(field, run.time_ms)?,
                    submission: run.submission,
                    computes_the_limit: run.computes_the_limit,
                })
            })
            .transpose()
        };
        let rule = self.rule;
        Ok(MarginFacts {
            rule: TimeRule {
                time_limit: (rule.time_limit_ms)
                    .map(|ms| time("margins.rule.time_limit_ms", ms))
                    .transpose()?,
                ac_to_time_limit: multiplier(
                    "margins.rule.ac_to_time_limit",
                    rule.ac_to_time_limit,
                )?,
                time_limit_to_tle: multiplier(
                    "margins.rule.time_limit_to_tle",
                    rule.time_limit_to_tle,
                )?,
                time_resolution: time("margins.rule.time_resolution_ms", rule.time_resolution_ms)?,
            },
            slowest_accepted: (self.slowest_accepted_ms)
                .map(|ms| time("margins.slowest_accepted_ms", ms))
                .transpose()?,
            fastest_tle: run("margins.fastest_tle.time_ms", self.fastest_tle)?,
            slowest_lower: run("margins.slowest_lower.time_ms", self.slowest_lower)?,
        })
    }
}
