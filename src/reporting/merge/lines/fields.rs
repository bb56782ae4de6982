//! What several lines' fields share, read and checked: a time in milliseconds, a time
//! multiplier, a time limit and how it came about, a package's located warnings; and what is
//! wrong with a field ([`BadField`], [`Wrong`]). The lines themselves are read in their own
//! modules.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::discovery::NoBucket;
use crate::model::{Fixed, How, TimeLimit};
use crate::package::limits::TimeLimitError;
use crate::package::yaml::Diagnostic;

#[derive(Deserialize)]
pub(super) struct DiagnosticLine {
    file: String,
    line: usize,
    column: usize,
    message: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum HowLine {
    Fixed(String),
    Computed {
        factor: f64,
        step_ms: f64,
        near_step: bool,
        cached: bool,
    },
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
    pub(in crate::reporting::merge) fn at(self, field: &'static str) -> BadField {
        BadField { field, wrong: self }
    }
}

/// `ms` milliseconds as the reports wrote them (to the microsecond).
pub(in crate::reporting::merge) fn duration(ms: f64) -> Result<Duration, Wrong> {
    Duration::try_from_secs_f64(ms / 1000.0).map_err(|_| Wrong::Time(ms))
}

/// Field `field`'s time multiplier, within the bounds every reader of one holds it to.
pub(super) fn multiplier(field: &'static str, factor: f64) -> Result<f64, BadField> {
    (crate::bounds::MULTIPLIER.admits(factor)).ok_or_else(|| Wrong::Multiplier(factor).at(field))
}

/// Field `field`'s `ms` as a duration.
pub(super) fn time(field: &'static str, ms: f64) -> Result<Duration, BadField> {
    duration(ms).map_err(|wrong| wrong.at(field))
}

/// A time limit as a line wrote it: its milliseconds (none when untimed) and how it came about.
pub(super) fn time_limit(ms: Option<f64>, how: HowLine) -> Result<TimeLimit, BadField> {
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

/// A package's located warnings, as a line wrote them.
pub(super) fn diagnostics(lines: Vec<DiagnosticLine>) -> Vec<Diagnostic> {
    let diagnostic = |d: DiagnosticLine| Diagnostic {
        file: PathBuf::from(d.file),
        line: d.line,
        column: d.column,
        message: d.message,
    };
    lines.into_iter().map(diagnostic).collect()
}
