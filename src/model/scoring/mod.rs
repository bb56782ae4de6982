//! The scores of a scoring problem's submissions: the problem's groups as a tree with the rule
//! each adds its children up by ([`Scheme`], made once per package), and a submission's case
//! runs added up by it into its group scores and total ([`Scores`]).
//!
//! Two rule sets, chosen by the package's version (docs: reference/scoring.md), each in its own
//! module:
//! - [`legacy`]: `grading` (legacy packages, and 2023-07 packages whose groups use its keys, as
//!   problemtools reads them): from the root `data/` down, every case a verdict and a score
//!   (`accept_score`/`reject_score`, or the validator's `score.txt`), every group a verdict and a
//!   score from its children in order (stopping at the first rejection unless
//!   `on_reject: continue`) by the default grader's `grader_flags`, checked against its `range`;
//! - [`aggregation`]: 2025-09 (and 2023-07 packages using `max_score`/`score_aggregation`):
//!   `secret` and its test data groups by `score_aggregation` (`pass-fail`, `sum`, `min`) under
//!   `max_score`, a case's maximum its group's (`min`) or an equal share of it (`sum`),
//!   `require_pass`.
//!
//! A score file the rules do not allow is the validator's fault: a judge error of that case.

mod aggregation;
mod legacy;

use aggregation::spec_tree;
use legacy::legacy_tree;

use crate::checking::score::ValidatorScore;
use crate::judging::CaseRun;
use crate::judging::Verdict as RunVerdict;
use crate::package::expectations::Verdict;
use crate::package::problem_grading::ProblemGrading;
use crate::package::settings::{Grading, MaxScore, Settings};
use crate::package::testdata::TestData;
use crate::package::version::FormatVersion;

/// How a scoring problem's scores are made.
#[derive(Clone, Debug)]
pub struct Scheme {
    root: Node,
    /// The judged cases' ids, in judging order.
    cases: Vec<String>,
    /// Legacy rules: whether the validator may, or must, write `score.txt`.
    custom_score: CustomScore,
    /// Legacy `objective: min`: a lower score is better.
    minimize: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomScore {
    Forbidden,
    Allowed,
    Required,
}

#[derive(Clone, Debug)]
struct Node {
    /// The group's path below `data/` (`data` for the root).
    id: String,
    rule: Rule,
    children: Vec<Child>,
}

#[derive(Clone, Debug)]
enum Child {
    /// A case, by its index in the problem's judged cases.
    Case(usize),
    Group(Node),
}

#[derive(Clone, Debug)]
enum Rule {
    Legacy(Legacy),
    Spec(Spec),
}

#[derive(Clone, Debug)]
struct Legacy {
    on_reject_continue: bool,
    accept: f64,
    reject: f64,
    range: (f64, f64),
    flags: Vec<String>,
}

#[derive(Clone, Debug)]
struct Spec {
    aggregation: Aggregation,
    /// `None`: unbounded.
    max: Option<f64>,
    require_pass: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aggregation {
    PassFail,
    Sum,
    Min,
}

/// Why a package's scores cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SchemeError {
    /// The package is wrong.
    #[error("{0}")]
    Invalid(String),
    /// The package asks for what grundy does not do.
    #[error("{0}")]
    Unsupported(String),
}

/// A submission's scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    pub total: f64,
    /// The lowest and highest score the problem gives.
    pub range: (f64, f64),
    /// Legacy `objective: min`: the lowest score is the full one, not the highest.
    pub minimize: bool,
    /// Legacy rules: the verdict the grading gave the submission (the root group's).
    pub verdict: Option<Verdict>,
    /// Each group scored, in judging order: its id, score and maximum (`None`: unbounded).
    pub groups: Vec<(String, f64, Option<f64>)>,
    /// Groups whose score is outside their `range` (legacy): the package is wrong.
    pub faults: Vec<OutOfRange>,
}

/// A group whose score (legacy `grading`) is outside its `range`: the package is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct OutOfRange {
    pub group: String,
    pub score: f64,
    pub range: (f64, f64),
}

/// Why a submission's scores cannot be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum NoScore {
    /// A case was not judged (judging stopped, or the host failed).
    Unjudged,
    /// A case's judge error: a score file against the rules, or the judge itself failed.
    JudgeError { case: usize, why: String },
}

impl Scheme {
    /// The scheme of a package in `version` with `data`, whose judged cases (in judging order)
    /// have the ids `cases`. `legacy_custom_score`: legacy `validation: custom score`;
    /// `problem`: legacy `grading` in `problem.yaml`.
    pub fn new(
        version: FormatVersion,
        data: &TestData,
        cases: &[String],
        legacy_custom_score: bool,
        problem: &ProblemGrading,
    ) -> Result<Scheme, SchemeError> {
        let mut settings =
            std::iter::once(&data.root).chain(data.groups.iter().map(|g| &g.settings));
        if let Some(why) = settings.find_map(|s| s.grading.unsupported.as_ref()) {
            return Err(SchemeError::Unsupported(format!(
                "{why}; the scores are not checked"
            )));
        }
        let legacy = match version {
            FormatVersion::Legacy => true,
            FormatVersion::V2023_07 => {
                let new_keys = |g: &Grading| g.max_score.is_some() || g.score_aggregation.is_some();
                let groups = || data.groups.iter().map(|g| &g.settings.grading);
                !groups().any(new_keys)
            }
            FormatVersion::V2025_09 => false,
        };
        if legacy {
            let custom_score = match version {
                FormatVersion::Legacy if legacy_custom_score => CustomScore::Required,
                FormatVersion::Legacy => CustomScore::Forbidden,
                _ => CustomScore::Allowed,
            };
            let root = legacy_tree(data, cases, problem)?;
            let cases = cases.to_vec();
            return Ok(Scheme {
                root,
                cases,
                custom_score,
                minimize: problem.minimize,
            });
        }
        Ok(Scheme {
            root: spec_tree(data, cases)?,
            cases: cases.to_vec(),
            custom_score: CustomScore::Allowed,
            minimize: false,
        })
    }

    /// The scores of a submission with these case runs (in judging order).
    pub fn score(&self, runs: &[Option<CaseRun>]) -> Result<Scores, NoScore> {
        let mut scores = Scores {
            total: 0.0,
            range: (0.0, 0.0),
            minimize: self.minimize,
            verdict: None,
            groups: vec![],
            faults: vec![],
        };
        match &self.root.rule {
            Rule::Legacy(rule) => {
                let graded = self.legacy(&self.root, runs, &mut scores)?;
                scores.total = graded.1;
                scores.verdict = Some(graded.0);
                scores.range = rule.range;
            }
            Rule::Spec(rule) => {
                scores.total = self.spec(&self.root, runs, &mut scores)?;
                scores.range = (0.0, rule.max.unwrap_or(f64::INFINITY));
            }
        }
        Ok(scores)
    }
}

/// A case verdict in the format's four: a memory or output overrun is a run-time error, as
/// Kattis counts it; a presentation error is a wrong answer. `None` for a judge error (the
/// package is at fault) and the verdicts no run gets here.
pub fn format_verdict(verdict: RunVerdict) -> Option<Verdict> {
    match verdict {
        RunVerdict::AC => Some(Verdict::AC),
        RunVerdict::WA | RunVerdict::PE => Some(Verdict::WA),
        RunVerdict::TLE => Some(Verdict::TLE),
        RunVerdict::RE | RunVerdict::MLE | RunVerdict::OLE => Some(Verdict::RTE),
        RunVerdict::NOEXP | RunVerdict::JE => None,
    }
}

/// A case's verdict in the format's words and its run, or why it has none.
fn judged(runs: &[Option<CaseRun>], c: usize) -> Result<(Verdict, &CaseRun), NoScore> {
    let run = runs
        .get(c)
        .and_then(Option::as_ref)
        .ok_or(NoScore::Unjudged)?;
    match format_verdict(run.verdict) {
        Some(verdict) => Ok((verdict, run)),
        None if run.verdict == RunVerdict::JE => Err(judge_error(
            c,
            run.message.as_deref().unwrap_or("judge error"),
        )),
        None => Err(NoScore::Unjudged),
    }
}

fn judge_error(case: usize, why: &str) -> NoScore {
    NoScore::JudgeError {
        case,
        why: why.to_string(),
    }
}

/// The group holding a case (`secret/group1` of `secret/group1/03`).
fn group_of(case: &str) -> &str {
    case.rsplit_once('/').map_or("", |(group, _)| group)
}

fn settings_of<'a>(data: &'a TestData, id: &str) -> &'a Settings {
    data.groups
        .iter()
        .find(|g| g.id == id)
        .map_or(&data.root, |g| &g.settings)
}

#[cfg(test)]
mod tests;
