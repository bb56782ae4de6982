//! Reporting: turning the stream of case results into human text or JSON lines. Results arrive in
//! sorted case order; reporters only format and print, they never run or judge anything.

mod human;
mod json;

use std::time::Duration;

pub use human::{HumanReporter, Verbosity};
pub use json::JsonReporter;

use crate::judging::CaseResult;

/// The totals of a run.
#[derive(Debug, Default)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    /// Cases not started because of `--fail-fast`.
    pub skipped: usize,
    pub wall_time: Duration,
    pub jobs: usize,
    /// The bucket judged and how many cases the suite held before partitioning.
    pub partition: Option<(String, usize)>,
}

impl Summary {
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.skipped
    }

    /// `N passed, M failed` (`, K skipped`): the closing line CI logs are read for.
    pub fn closing_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line += &format!(", {} skipped", self.skipped);
        }
        line
    }
}

/// A consumer of case results, in sorted case order.
pub trait Reporter {
    fn case_finished(&mut self, result: &CaseResult);
    fn finish(&mut self, summary: &Summary);
}

/// Milliseconds with a fraction, for reports.
pub fn millis(time: Duration) -> f64 {
    (time.as_secs_f64() * 1e6).round() / 1e3
}
