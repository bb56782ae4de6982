//! The contest table `verify` ends with (what BAPCtools' `bt stats` shows of a contest): a row
//! per problem verified, with its label, its cases per group, its submissions per expected
//! verdict and how many got one they may get, its validators, its time limit against the
//! slowest accepted run and the fastest run over it, and what it is missing. Gathered from the
//! run's events (a problem's heading, its rows, its outcome) by each reporter that shows it, so
//! every report of a run, and of shards merged, holds the same table.

use std::fmt;
use std::time::Duration;

use super::seconds;
use super::verified::{
    Got, OutputJudge, ProblemHeading, ProblemOutcome, Status, SubmissionRow, Validators,
};
use crate::judging::Verdict;

/// The rows gathered so far, one per problem started.
#[derive(Clone, Debug, Default)]
pub struct ContestTable {
    rows: Vec<ContestRow>,
}

/// One problem of the contest.
#[derive(Clone, Debug, Default)]
pub struct ContestRow {
    pub label: Option<String>,
    pub problem: String,
    /// Judged cases per group, in judging order.
    pub groups: Vec<(String, usize)>,
    /// The submissions per expected verdict, in [`rank`] order.
    pub expected: Vec<Expected>,
    pub validators: Validators,
    pub time_limit: Option<Duration>,
    /// The slowest case of the slowest submission judged AC.
    pub slowest_accepted: Option<Duration>,
    /// The slowest case of the fastest submission judged TLE: how far over the limit the
    /// nearest submission too slow is.
    pub fastest_too_slow: Option<Duration>,
    /// `None` until the problem's outcome is in.
    pub status: Option<Status>,
}

/// The submissions that must get one verdict (or one of several: `TLE/RTE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub verdicts: String,
    pub submissions: usize,
    /// How many got a verdict they may get.
    pub as_expected: usize,
}

/// What a problem lacks that a contest's problem should have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    Accepted,
    WrongAnswer,
    TooSlow,
    InputValidator,
    Sample,
    Secret,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Missing::Accepted => "an accepted submission",
            Missing::WrongAnswer => "a wrong-answer submission",
            Missing::TooSlow => "a time-limit submission",
            Missing::InputValidator => "an input validator",
            Missing::Sample => "a sample case",
            Missing::Secret => "a secret case",
        })
    }
}

impl ContestTable {
    /// Whether a run's report shows it: a contest (a labelled problem) or several problems.
    pub fn shown(&self) -> bool {
        self.rows.len() > 1 || self.rows.iter().any(|row| row.label.is_some())
    }

    pub fn rows(&self) -> &[ContestRow] {
        &self.rows
    }

    /// A problem starts reporting.
    pub fn started(&mut self, heading: &ProblemHeading) {
        self.rows.push(ContestRow {
            label: heading.label.clone(),
            problem: heading.name.clone(),
            groups: heading.groups.clone(),
            validators: heading.validators.clone(),
            time_limit: heading.time_limit.limit.as_ref().ok().copied(),
            ..ContestRow::default()
        });
    }

    /// A submission of the problem last started is settled.
    pub fn submission(&mut self, row: &SubmissionRow) {
        let Some(problem) = self.rows.last_mut() else {
            return;
        };
        let verdicts = row.expected_verdicts.join("/");
        let at = match problem.expected.iter().position(|e| e.verdicts == verdicts) {
            Some(at) => at,
            None => {
                problem.expected.push(Expected {
                    verdicts,
                    submissions: 0,
                    as_expected: 0,
                });
                problem.expected.sort_by_key(|e| rank(&e.verdicts));
                let added = |e: &Expected| e.submissions == 0;
                problem.expected.iter().position(added).expect("just added")
            }
        };
        problem.expected[at].submissions += 1;
        problem.expected[at].as_expected += usize::from(row.ok == Some(true));
        let time = row.slowest.as_ref().map(|(_, time)| *time);
        match row.verdict {
            Some(Got::Verdict(Verdict::AC)) => {
                problem.slowest_accepted = problem.slowest_accepted.max(time);
            }
            Some(Got::Verdict(Verdict::TLE)) => {
                problem.fastest_too_slow = match (problem.fastest_too_slow, time) {
                    (Some(known), Some(time)) => Some(known.min(time)),
                    (known, time) => known.or(time),
                };
            }
            _ => {}
        }
    }

    /// The problem last started has its outcome.
    pub fn verified(&mut self, outcome: &ProblemOutcome) {
        if let Some(problem) = self.rows.last_mut() {
            problem.status = Some(outcome.status());
        }
    }
}

/// Where a kind of expected verdict goes in a row: AC, WA, TLE, RTE, then the others
/// (several allowed, or a scoring problem's) by name.
fn rank(verdicts: &str) -> (usize, String) {
    let known = ["AC", "WA", "TLE", "RTE"]
        .iter()
        .position(|v| *v == verdicts);
    (known.unwrap_or(4), verdicts.to_string())
}

impl ContestRow {
    /// What it lacks, in the order [`Missing`] lists them.
    pub fn missing(&self) -> Vec<Missing> {
        let has = |verdict: &str| {
            self.expected
                .iter()
                .any(|e| e.verdicts.split('/').any(|v| v == verdict))
        };
        let group = |name: &str| {
            self.groups
                .iter()
                .any(|(group, _)| group == name || group.starts_with(&format!("{name}/")))
        };
        [
            (Missing::Accepted, has("AC")),
            (Missing::WrongAnswer, has("WA")),
            (Missing::TooSlow, has("TLE")),
            (Missing::InputValidator, self.validators.input > 0),
            (Missing::Sample, group("sample")),
            (Missing::Secret, group("secret")),
        ]
        .into_iter()
        .filter(|(_, there)| !there)
        .map(|(missing, _)| missing)
        .collect()
    }

    /// Its cases per group in words: `sample 2, secret 5`.
    pub fn cases(&self) -> String {
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|(group, count)| format!("{group} {count}"))
            .collect();
        groups.join(", ")
    }

    /// Its submissions per expected verdict in words, as expected of all: `AC 2/2, WA 0/1`.
    pub fn submissions(&self) -> String {
        let expected: Vec<String> = self
            .expected
            .iter()
            .map(|e| format!("{} {}/{}", e.verdicts, e.as_expected, e.submissions))
            .collect();
        expected.join(", ")
    }

    /// Its validators in words: `1 input, 1 answer, custom output`.
    pub fn validators(&self) -> String {
        let v = &self.validators;
        let output = match v.output {
            OutputJudge::Default => "default output".to_string(),
            other => format!("{} output", other.name()),
        };
        match v.answer {
            0 => format!("{} input, {output}", v.input),
            answer => format!("{} input, {answer} answer, {output}", v.input),
        }
    }

    /// `1s (AC ≤ 0.12s, TLE ≥ 2s)`: the limit, the slowest accepted run and the fastest run
    /// over it, the room on either side.
    pub fn time_limit(&self) -> String {
        let Some(limit) = self.time_limit else {
            return "none".into();
        };
        let mut around = vec![];
        if let Some(accepted) = self.slowest_accepted {
            around.push(format!("AC ≤ {}", seconds(accepted)));
        }
        if let Some(too_slow) = self.fastest_too_slow {
            around.push(format!("TLE ≥ {}", seconds(too_slow)));
        }
        match around.is_empty() {
            true => seconds(limit),
            false => format!("{} ({})", seconds(limit), around.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests;
