//! A `submission` line read back: a submission's row, as the [`SubmissionRow`] it was written
//! from, with its runs, scores and likely reason. Why it was not judged comes back as the line
//! it was reported as.

use serde::Deserialize;

use super::fields::{time, time_limit, BadField, HowLine, Wrong};
use crate::judging::Verdict;
use crate::package::languages::Python3;
use crate::reporting::reason::{Evidence, Kind, LimitRun, Reason};
use crate::reporting::verified::{CaseCell, Got, RowScore, SkipReason, SubmissionRow};

#[derive(Deserialize)]
pub(in crate::reporting::merge) struct SubmissionLine {
    pub package: String,
    pub submission: String,
    language: String,
    tool: Option<String>,
    verdict: Option<String>,
    expected: Vec<String>,
    expected_rules: String,
    expected_short: String,
    ok: Option<bool>,
    time_ms: Option<f64>,
    slowest_case: Option<String>,
    skipped: Option<String>,
    problem: Option<String>,
    compile_error: Option<String>,
    judge_error: Option<String>,
    caught_by: Vec<CaughtLine>,
    /// Absent from a report written before the field was: its page then has no matrix.
    #[serde(default)]
    runs: Vec<RunLine>,
    reason: Option<ReasonLine>,
    score: Option<f64>,
    max_score: Option<f64>,
    group_scores: Option<Vec<GroupScoreLine>>,
    min_score: Option<f64>,
}

#[derive(Deserialize)]
struct CaughtLine {
    case: String,
    verdict: Verdict,
    message: Option<String>,
}

#[derive(Deserialize)]
struct RunLine {
    case: String,
    verdict: Option<Verdict>,
    time_ms: f64,
    message: Option<String>,
    detail: Option<String>,
}

#[derive(Deserialize)]
struct GroupScoreLine {
    group: String,
    score: f64,
    max_score: Option<f64>,
}

#[derive(Deserialize)]
struct ReasonLine {
    kind: String,
    own: bool,
    case: Option<String>,
    verdict: Option<Verdict>,
    cpu_ms: Option<f64>,
    wall_ms: Option<f64>,
    peak_memory_bytes: Option<u64>,
    message: Option<String>,
    time_limit_ms: Option<f64>,
    time_limit_how: Option<HowLine>,
    limit_from: Option<LimitFromLine>,
    tool: Option<String>,
    interpreter: Option<String>,
}

#[derive(Deserialize)]
struct LimitFromLine {
    submission: String,
    case: String,
    time_ms: f64,
    tool: Option<String>,
    cpython: bool,
}

impl SubmissionLine {
    pub(in crate::reporting::merge) fn typed(self) -> Result<SubmissionRow, BadField> {
        let verdict = match self.verdict.as_deref() {
            None => None,
            Some("CE") => Some(Got::CompileError),
            Some(word) => Some(Got::Verdict(verdict(word).map_err(|w| w.at("verdict"))?)),
        };
        let slowest = match (self.slowest_case, self.time_ms) {
            (Some(case), Some(ms)) => Some((case, time("time_ms", ms)?)),
            _ => None,
        };
        let score = self.score.map(|total| RowScore {
            total,
            max: self.max_score,
            groups: (self.group_scores.unwrap_or_default().into_iter())
                .map(|g| (g.group, g.score, g.max_score))
                .collect(),
            lower_best: self.min_score,
        });
        Ok(SubmissionRow {
            problem: self.package,
            submission: self.submission,
            language: self.language,
            tool: self.tool,
            verdict,
            expected: self.expected_rules,
            expected_short: self.expected_short,
            expected_verdicts: self.expected,
            ok: self.ok,
            slowest,
            caught_by: (self.caught_by.into_iter())
                .map(|c| (c.case, c.verdict, c.message))
                .collect(),
            unexpected: self.problem,
            skipped: self.skipped.map(SkipReason::Reported),
            compile_error: self.compile_error,
            judge_error: self.judge_error,
            score,
            reason: self.reason.map(ReasonLine::typed).transpose()?,
            runs: self
                .runs
                .into_iter()
                .map(RunLine::typed)
                .collect::<Result<_, _>>()?,
        })
    }
}

impl RunLine {
    fn typed(self) -> Result<CaseCell, BadField> {
        Ok(CaseCell {
            time: time("runs.time_ms", self.time_ms)?,
            case: self.case,
            verdict: self.verdict,
            message: self.message,
            detail: self.detail,
        })
    }
}

fn verdict(word: &str) -> Result<Verdict, Wrong> {
    serde_json::from_value(word.into()).map_err(|_| Wrong::Verdict(word.to_string()))
}

impl ReasonLine {
    fn typed(self) -> Result<Reason, BadField> {
        let kind =
            Kind::named(&self.kind).ok_or_else(|| Wrong::Reason(self.kind).at("reason.kind"))?;
        let interpreter = match self.interpreter.as_deref() {
            None => None,
            Some("pypy3") => Some(Python3::PyPy),
            Some("cpython") => Some(Python3::CPython),
            Some(other) => {
                return Err(Wrong::Interpreter(other.to_string()).at("reason.interpreter"))
            }
        };
        let limit_from = match self.limit_from {
            None => None,
            Some(from) => Some(LimitRun {
                submission: from.submission,
                case: from.case,
                time: time("reason.limit_from.time_ms", from.time_ms)?,
                tool: from.tool,
                cpython: from.cpython,
            }),
        };
        let time_limit = match self.time_limit_how {
            None => None,
            Some(how) => Some(time_limit(self.time_limit_ms, how)?),
        };
        Ok(Reason {
            kind,
            own: self.own,
            evidence: Evidence {
                case: self.case,
                verdict: self.verdict,
                cpu: self
                    .cpu_ms
                    .map(|ms| time("reason.cpu_ms", ms))
                    .transpose()?,
                wall: self
                    .wall_ms
                    .map(|ms| time("reason.wall_ms", ms))
                    .transpose()?,
                peak_memory_bytes: self.peak_memory_bytes,
                message: self.message,
                time_limit,
                limit_from,
                tool: self.tool,
                interpreter,
            },
        })
    }
}
