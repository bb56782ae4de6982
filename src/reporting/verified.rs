//! What `verify` reports, as plain data its events carry: a problem's heading (what it is, how
//! it was built, validated and timed), one row per submission (what it got against what it
//! must get, and the cases that caught it), and a problem's outcome (what is wrong with it, what
//! could not be checked, its [`Status`]; each finding typed, [`super::findings`]). Made by
//! `verification::report`, rendered by every reporter.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::findings::{Fault, JudgingWarning, Unbuilt, Unchecked};
use crate::escape::visible_line;
use crate::judging::Verdict;
use crate::model::{MarginFacts, TimeLimit};
use crate::package::yaml::Diagnostic;

/// A problem of `verify`, before its submissions are reported.
#[derive(Clone, Debug, Default)]
pub struct ProblemHeading {
    pub name: String,
    /// Where it comes from: the package folder, or the built-in problem's fixtures.
    pub origin: String,
    /// Located warnings of the package, found while reading it.
    pub warnings: Vec<Diagnostic>,
    /// What was built, and how much came from the cache.
    pub build: String,
    /// What validation checked.
    pub validation: String,
    /// The time limit and where it comes from.
    pub time_limit: TimeLimit,
    /// Each submission's name and language, in order: what a table's columns must hold.
    pub submissions: Vec<(String, String)>,
    /// Its label in a contest (`problems.yaml`'s, else A, B, C... in folder order); `None`
    /// for a package verified alone or a built-in problem.
    pub label: Option<String>,
    /// How many judged cases each group holds (`sample`, `secret/group1`), in judging order.
    pub groups: Vec<(String, usize)>,
    /// Its validators, as the contest table counts them.
    pub validators: Validators,
}

/// A problem's validators: how many input and answer validators, and what judges outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validators {
    pub input: usize,
    pub answer: usize,
    pub output: OutputJudge,
}

/// What judges a problem's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputJudge {
    /// The format's default output validator.
    #[default]
    Default,
    /// The package's own output validator.
    Custom,
    /// The package's interactor.
    Interactor,
    /// A built-in problem's checker.
    BuiltIn,
}

impl OutputJudge {
    /// The judge a report names `name`, for a report read back.
    pub fn named(name: &str) -> Option<OutputJudge> {
        [
            OutputJudge::Default,
            OutputJudge::Custom,
            OutputJudge::Interactor,
            OutputJudge::BuiltIn,
        ]
        .into_iter()
        .find(|judge| judge.name() == name)
    }

    /// Its name in every report.
    pub fn name(self) -> &'static str {
        match self {
            OutputJudge::Default => "default",
            OutputJudge::Custom => "custom",
            OutputJudge::Interactor => "interactor",
            OutputJudge::BuiltIn => "built-in",
        }
    }
}

/// What a submission got: its first failing case's verdict (AC when none failed), or a compile
/// error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Got {
    Verdict(Verdict),
    CompileError,
}

impl fmt::Display for Got {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Got::Verdict(verdict) => verdict.fmt(f),
            Got::CompileError => f.write_str("CE"),
        }
    }
}

/// Why a submission was not judged, kept as the judging stage made it until a reporter says it
/// (its one line, the same in every format).
#[derive(Clone, Debug)]
pub enum SkipReason {
    /// The judging stage's reason (`verification::results::NotJudged`), held as an error because
    /// `reporting` sits below the stage that makes it.
    Judging(Arc<dyn std::error::Error + Send + Sync>),
    /// Read back from a report, as its line said it (`report merge`): every reporter shows the
    /// reason by its one line, so that line is all a merged report needs of it.
    Reported(String),
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Judging(why) => write!(f, "{why}"),
            SkipReason::Reported(line) => f.write_str(line),
        }
    }
}

/// One submission, settled.
#[derive(Clone, Debug, Default)]
pub struct SubmissionRow {
    /// The problem it belongs to.
    pub problem: String,
    /// The path below `submissions/`.
    pub submission: String,
    pub language: String,
    /// The tool that built or ran it and its version (`pypy3: Python 3.9.16 ...`), or the tool
    /// that is missing; `None` for a program of no language (scripts).
    pub tool: Option<String>,
    /// `None` when it was not judged.
    pub verdict: Option<Got>,
    /// What it must get, in full, and in a few characters for tables.
    pub expected: String,
    pub expected_short: String,
    /// The verdicts it may end with (the format's names: AC, WA, TLE, RTE, or CE), the same
    /// whatever the format version.
    pub expected_verdicts: Vec<String>,
    /// Whether the verdict is one the package allows; `None` when not judged.
    pub ok: Option<bool>,
    /// Its slowest case.
    pub slowest: Option<(String, Duration)>,
    /// Every case it failed, in judging order, with the verdict and message.
    pub caught_by: Vec<(String, Verdict, Option<String>)>,
    /// What was not as expected, in one line.
    pub unexpected: Option<String>,
    /// Why it was not judged.
    pub skipped: Option<SkipReason>,
    /// A compiler's message.
    pub compile_error: Option<String>,
    /// Why it could not be built, by the host's fault (verdict `JE`; not judged).
    pub judge_error: Option<String>,
    /// A scoring problem's scores of it; `None` for a pass-fail problem, or when they could not
    /// be computed.
    pub score: Option<RowScore>,
    /// Why it was likely not as expected (only then), with the evidence.
    pub reason: Option<super::reason::Reason>,
    /// Every case of its problem in judging order, as it went (the HTML report's matrix); empty
    /// when it was not judged or did not compile.
    pub runs: Vec<CaseCell>,
}

/// One case of a submission's judging, as the HTML report's matrix shows it (and the JSON
/// submission line's `runs` carries it, for `report merge` to draw the matrix again).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseCell {
    /// The case's path within its problem.
    pub case: String,
    /// `None` when it did not run (after its first failure under `--first-failure`).
    pub verdict: Option<Verdict>,
    /// The time the verdict went by: CPU time, or the wall time of a run the wall clock stopped.
    pub time: Duration,
    /// Why it failed, on one line.
    pub message: Option<String>,
    /// What a failed run showed beyond its message (its diff, its stderr), bounded: see
    /// [`super::failure_detail`].
    pub detail: Option<String>,
}

/// A submission's scores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowScore {
    pub total: f64,
    /// The highest score, the full one unless `lower_best`; `None` when unbounded.
    pub max: Option<f64>,
    /// Each group scored, in judging order: its id, score and maximum (`None`: unbounded).
    pub groups: Vec<(String, f64, Option<f64>)>,
    /// Legacy `objective: min`: a lower score is better, and this (the lowest) is the full one.
    pub lower_best: Option<f64>,
}

impl RowScore {
    /// The scores in words, for a line or to wrap: `score 50 of 100: secret/subtask1 50/50,
    /// secret/subtask2 0/50` (the last group, the root the total comes from, left out). Where a
    /// lower score is better: `score 7, lower is better, full 3: secret/subtask1 4, ...`.
    pub fn words(&self) -> Vec<String> {
        let of = |max: Option<f64>| max.map_or("unbounded".to_string(), points);
        let mut words = vec!["score".to_string(), points(self.total)];
        match self.lower_best {
            Some(best) => {
                words[1].push(',');
                let lower = ["lower", "is", "better,", "full"].map(String::from);
                words.extend(lower.into_iter().chain([points(best)]));
            }
            None => words.extend(["of".into(), of(self.max)]),
        }
        let groups = &self.groups[..self.groups.len().saturating_sub(1)];
        if let Some(last) = words.last_mut().filter(|_| !groups.is_empty()) {
            last.push(':');
        }
        for (i, (group, got, max)) in groups.iter().enumerate() {
            let comma = if i + 1 < groups.len() { "," } else { "" };
            // Out of a maximum only where the maximum is the full score.
            let out_of = match self.lower_best {
                Some(_) => String::new(),
                None => format!("/{}", of(*max)),
            };
            words.push(format!(
                "{} {}{out_of}{comma}",
                visible_line(group),
                points(*got),
            ));
        }
        words
    }
}

/// A score as the reports write it: up to six decimals, no trailing zeros.
pub fn points(score: f64) -> String {
    let rounded = (score * 1e6).round() / 1e6;
    format!("{}", rounded + 0.0)
}

/// A problem of `verify`, once all its submissions were reported.
#[derive(Clone, Debug, Default)]
pub struct ProblemOutcome {
    pub name: String,
    pub origin: String,
    /// The package's warnings (those of its heading).
    pub warnings: Vec<Diagnostic>,
    /// What judging noticed that is worth fixing but fails nothing (a thin fixed time limit).
    pub judging_warnings: Vec<JudgingWarning>,
    /// What makes the package invalid.
    pub errors: Vec<Fault>,
    /// What could not be checked (a validator that did not run): the package is then not known
    /// to be valid.
    pub unchecked: Vec<Unchecked>,
    /// Its programs the host failed to build (judge errors), each with why.
    pub judge_errors: Vec<Unbuilt>,
    pub time_limit: TimeLimit,
    /// What its time-limit findings ([`Fault::Margins`], [`JudgingWarning::ThinMargin`]) were
    /// computed from: `None` without a limit, or from a report that did not say.
    pub margins: Option<MarginFacts>,
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

impl ProblemOutcome {
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
