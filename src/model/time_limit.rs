//! A problem's time limit as every command judges with it and every report says it
//! ([`TimeLimit`]): the limit, or why there is none, and how it came about by the one rule every
//! command follows: `--time-limit` over everything; else a package's own (`limits.time_limit`,
//! or DOMjudge's files), else one computed from its accepted submissions' CPU times (timed now,
//! or by an earlier command and cached by content: [`crate::build::timings`]); a built-in
//! problem's, or a fixtures folder's, is runner.toml's. The limit is a [`Duration`]; only the
//! reports make it text.

use std::fmt;
use std::time::Duration;

use crate::package::limits::{seconds, TimeLimitError, TimeRule};

/// Where a time limit that is not computed comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixed {
    /// `--time-limit`.
    Flag,
    /// runner.toml (or its default): a built-in problem's, a fixtures folder's.
    Runner,
    /// The package's own: the file that fixes it (`problem.yaml`, or one of DOMjudge's).
    Package(&'static str),
}

/// How a time limit came about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum How {
    Fixed(Fixed),
    /// The slowest accepted run times `factor`, rounded up to `step`; `near_step`: within 10%
    /// of a step, so another run may give the next one; `cached`: timed by an earlier command.
    Computed {
        factor: f64,
        step: Duration,
        near_step: bool,
        cached: bool,
    },
}

/// A problem's time limit, or why it has none, and how it came about.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeLimit {
    pub limit: Result<Duration, TimeLimitError>,
    pub how: How,
}

/// No limit known yet: `none` to a report.
impl Default for TimeLimit {
    fn default() -> TimeLimit {
        TimeLimit {
            limit: Err(TimeLimitError::Untimed),
            how: How::Fixed(Fixed::Runner),
        }
    }
}

impl TimeLimit {
    /// A limit fixed by `source`.
    pub fn fixed(limit: Duration, source: Fixed) -> TimeLimit {
        TimeLimit {
            limit: Ok(limit),
            how: How::Fixed(source),
        }
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fixed::Flag => "--time-limit",
            Fixed::Runner => "runner.toml",
            Fixed::Package(file) => file,
        })
    }
}

impl Fixed {
    /// The source a report names (`problem.yaml`, `--time-limit`): the inverse of its
    /// `Display`, for a report read back; `None` for a name no source has.
    pub fn named(name: &str) -> Option<Fixed> {
        match name {
            "--time-limit" => Some(Fixed::Flag),
            "runner.toml" => Some(Fixed::Runner),
            _ => crate::package::limits::TIME_LIMIT_FILES
                .into_iter()
                .find(|file| *file == name)
                .map(Fixed::Package),
        }
    }
}

/// `1s (problem.yaml)`, `1s (computed: ...)`, or `none`.
impl fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ok(limit) = self.limit else {
            return f.write_str("none");
        };
        match self.how {
            How::Fixed(source) => write!(f, "{} ({source})", seconds(limit)),
            How::Computed {
                factor,
                step,
                near_step,
                cached,
            } => {
                write!(
                    f,
                    "{} (computed: the slowest accepted run × {factor}, rounded up to {}",
                    seconds(limit),
                    seconds(step)
                )?;
                if cached {
                    f.write_str("; its runs timed by an earlier command, cached")?;
                }
                f.write_str(")")?;
                if near_step {
                    f.write_str(
                        "; the slowest run is within 10% of a rounding step, so another run \
                         may give the next one: fix it in problem.yaml (grundy timelimit \
                         --write)",
                    )?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_says_how_it_came_about() {
        let second = Duration::from_secs(1);
        let fixed = TimeLimit::fixed(second, Fixed::Package("problem.yaml"));
        assert_eq!(fixed.to_string(), "1s (problem.yaml)");
        assert_eq!(
            TimeLimit::fixed(Duration::from_millis(1500), Fixed::Flag).to_string(),
            "1.5s (--time-limit)"
        );
        let computed = |near_step, cached| TimeLimit {
            limit: Ok(second),
            how: How::Computed {
                factor: 2.0,
                step: second,
                near_step,
                cached,
            },
        };
        assert_eq!(
            computed(false, false).to_string(),
            "1s (computed: the slowest accepted run × 2, rounded up to 1s)"
        );
        assert_eq!(
            computed(false, true).to_string(),
            "1s (computed: the slowest accepted run × 2, rounded up to 1s; its runs timed by \
             an earlier command, cached)"
        );
        assert!(computed(true, false)
            .to_string()
            .ends_with("fix it in problem.yaml (grundy timelimit --write)"));
        let none = TimeLimit {
            limit: Err(TimeLimitError::Untimed),
            ..computed(false, false)
        };
        assert_eq!(none.to_string(), "none");
    }
}

/// What a problem's time-limit findings are computed from, once every run has its final
/// verdict: the format's margins (an error) and the thin margin under the limit (a warning).
/// The reports carry it so that `report merge` computes both once from every shard's runs, as
/// one run does, instead of telling each shard's.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginFacts {
    pub rule: TimeRule,
    /// The slowest finished run of the submissions that compute the limit.
    pub slowest_accepted: Option<Duration>,
    /// The fastest time-limit-exceeded submission, by its slowest run.
    pub fastest_tle: Option<SlowestRun>,
    /// The slowest finished run of the submissions that bound the limit from below.
    pub slowest_lower: Option<SlowestRun>,
}

/// A submission's slowest run, as [`MarginFacts`] keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct SlowestRun {
    pub submission: String,
    pub time: Duration,
    /// Whether the limit is computed from the submission's runs (an accepted one).
    pub computes_the_limit: bool,
}

impl MarginFacts {
    /// The facts of the runs of both: what one run of all their submissions would have.
    pub fn combine(self, other: MarginFacts) -> MarginFacts {
        // The run of `a` or `b` that `wins` over the other, and `a`'s on a tie.
        let pick = |a: Option<SlowestRun>,
                    b: Option<SlowestRun>,
                    wins: fn(&Duration, &Duration) -> bool| match (a, b) {
            (Some(a), Some(b)) => Some(if wins(&b.time, &a.time) { b } else { a }),
            (a, b) => a.or(b),
        };
        MarginFacts {
            rule: self.rule,
            slowest_accepted: self.slowest_accepted.max(other.slowest_accepted),
            fastest_tle: pick(self.fastest_tle, other.fastest_tle, Duration::lt),
            slowest_lower: pick(self.slowest_lower, other.slowest_lower, Duration::gt),
        }
    }
}
