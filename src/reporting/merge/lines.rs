//! The lines of `verify --format json` as `report merge` reads them back, and each made the
//! typed event payload it was written from: a `heading` line a [`ProblemHeading`], a
//! `submission` line a [`SubmissionRow`], a `package` line a [`ProblemOutcome`]. Findings come
//! back as the lines they were reported as (`Reported`): every reporter shows a finding by its
//! one line; but the time limit's margins, which a package line's `margins` marks, come back as
//! the facts they were computed from, for the merge to compute them once. Fields the reader
//! does not know are ignored, so later additions read.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::discovery::NoBucket;
use crate::judging::Verdict;
use crate::model::{Fixed, How, MarginFacts, SlowestRun, TimeLimit};
use crate::package::languages::Python3;
use crate::package::limits::{TimeLimitError, TimeRule};
use crate::package::yaml::Diagnostic;
use crate::reporting::findings::{Fault, JudgingWarning, Unbuilt, Unchecked};
use crate::reporting::reason::{Evidence, Kind, LimitRun, Reason};
use crate::reporting::verified::{
    CaseCell, Got, OutputJudge, ProblemHeading, ProblemOutcome, RowScore, SkipReason,
    SubmissionRow, Validators,
};

/// One line of a report, by its `type`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum Line {
    Heading(Box<HeadingLine>),
    Submission(Box<SubmissionLine>),
    Package(Box<PackageLine>),
    /// Made again from the merged stream.
    Contest {},
    Summary(Box<SummaryLine>),
    /// Lines of the other commands: named, to say whose report it is.
    Case {},
    Counterexample {},
    Problem {},
}

#[derive(Deserialize)]
pub(super) struct HeadingLine {
    pub package: String,
    origin: String,
    warnings: Vec<DiagnosticLine>,
    build: String,
    validation: String,
    time_limit_ms: Option<f64>,
    time_limit_how: HowLine,
    submissions: Vec<NamedLine>,
    label: Option<String>,
    groups: Vec<GroupLine>,
    validators: ValidatorsLine,
}

#[derive(Deserialize)]
struct DiagnosticLine {
    file: String,
    line: usize,
    column: usize,
    message: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum HowLine {
    Fixed(String),
    Computed {
        factor: f64,
        step_ms: f64,
        near_step: bool,
        cached: bool,
    },
}

#[derive(Deserialize)]
struct NamedLine {
    submission: String,
    language: String,
}

#[derive(Deserialize)]
struct GroupLine {
    group: String,
    cases: usize,
}

#[derive(Deserialize)]
struct ValidatorsLine {
    input: usize,
    answer: usize,
    output: String,
}

#[derive(Deserialize)]
pub(super) struct SubmissionLine {
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

#[derive(Deserialize)]
pub(super) struct PackageLine {
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

#[derive(Deserialize)]
pub(super) struct SummaryLine {
    pub command: String,
    pub schema: Option<u64>,
    pub cancelled: bool,
    pub partition: Option<String>,
    pub suite_total: Option<usize>,
    #[serde(default)]
    pub unreadable: Vec<String>,
    #[serde(default)]
    pub unreadable_packages: Vec<String>,
    pub left_out: Option<LeftOutLine>,
    pub time_ms: f64,
}

#[derive(Deserialize)]
pub(super) struct LeftOutLine {
    pub invalid: usize,
    pub beyond_original_limits: usize,
}

/// A field of a line that JSON reads but grundy does not: which field, and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("field `{field}`: {wrong}")]
pub struct BadField {
    pub field: &'static str,
    pub wrong: Wrong,
}

/// What is wrong with a field's value.
#[derive(Debug, thiserror::Error)]
pub enum Wrong {
    #[error("{0} is no time in milliseconds")]
    Time(f64),
    #[error("no time limit is fixed by `{0}`")]
    Fixed(String),
    #[error("no output judge is named `{0}`")]
    OutputJudge(String),
    #[error("`{0}` is no verdict")]
    Verdict(String),
    #[error("no reason is `{0}`")]
    Reason(String),
    #[error("no interpreter is `{0}`")]
    Interpreter(String),
    #[error("{0} is past the end of its list")]
    Index(usize),
    #[error("{0} is not {bound}", bound = crate::bounds::MULTIPLIER)]
    Multiplier(f64),
    #[error(transparent)]
    Partition(#[from] NoBucket),
}

impl Wrong {
    pub(super) fn at(self, field: &'static str) -> BadField {
        BadField { field, wrong: self }
    }
}

/// `ms` milliseconds as the reports wrote them (to the microsecond).
pub(super) fn duration(ms: f64) -> Result<Duration, Wrong> {
    Duration::try_from_secs_f64(ms / 1000.0).map_err(|_| Wrong::Time(ms))
}

/// Field `field`'s time multiplier, within the bounds every reader of one holds it to.
fn multiplier(field: &'static str, factor: f64) -> Result<f64, BadField> {
    (crate::bounds::MULTIPLIER.admits(factor)).ok_or_else(|| Wrong::Multiplier(factor).at(field))
}

/// Field `field`'s `ms` as a duration.
fn time(field: &'static str, ms: f64) -> Result<Duration, BadField> {
    duration(ms).map_err(|wrong| wrong.at(field))
}

fn time_limit(ms: Option<f64>, how: HowLine) -> Result<TimeLimit, BadField> {
    let how = match how {
        HowLine::Fixed(source) => How::Fixed(
            Fixed::named(&source).ok_or_else(|| Wrong::Fixed(source).at("time_limit_how"))?,
        ),
        HowLine::Computed {
            factor,
            step_ms,
            near_step,
            cached,
        } => How::Computed {
            factor,
            step: time("step_ms", step_ms)?,
            near_step,
            cached,
        },
    };
    let limit = match ms {
        Some(ms) => Ok(time("time_limit_ms", ms)?),
        None => Err(TimeLimitError::Untimed),
    };
    Ok(TimeLimit { limit, how })
}

fn diagnostics(lines: Vec<DiagnosticLine>) -> Vec<Diagnostic> {
    let diagnostic = |d: DiagnosticLine| Diagnostic {
        file: PathBuf::from(d.file),
        line: d.line,
        column: d.column,
        message: d.message,
    };
    lines.into_iter().map(diagnostic).collect()
}

impl HeadingLine {
    pub(super) fn typed(self) -> Result<ProblemHeading, BadField> {
        let output = OutputJudge::named(&self.validators.output).ok_or_else(|| {
            Wrong::OutputJudge(self.validators.output.clone()).at("validators.output")
        })?;
        Ok(ProblemHeading {
            name: self.package,
            origin: self.origin,
            warnings: diagnostics(self.warnings),
            build: self.build,
            validation: self.validation,
            time_limit: time_limit(self.time_limit_ms, self.time_limit_how)?,
            submissions: (self.submissions.into_iter())
                .map(|s| (s.submission, s.language))
                .collect(),
            label: self.label,
            groups: self
                .groups
                .into_iter()
                .map(|g| (g.group, g.cases))
                .collect(),
            validators: Validators {
                input: self.validators.input,
                answer: self.validators.answer,
                output,
            },
        })
    }
}

impl SubmissionLine {
    pub(super) fn typed(self) -> Result<SubmissionRow, BadField> {
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

impl PackageLine {
    /// The outcome, without the time-limit findings its `margins` computed: `report merge`
    /// computes them again from every shard's facts.
    pub(super) fn typed(mut self) -> Result<ProblemOutcome, BadField> {
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
