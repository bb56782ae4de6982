//! What `timelimit` reports of each package, as plain data its events carry: each accepted
//! submission's slowest case in every timing run and what kept a run from timing the limit
//! ([`Trouble`]), the limit the format's rule makes of them ([`Limit`]), and what the one run
//! of each other submission that bounds the limit says of its margin ([`Bound`]: one that does
//! not keep its side is a warning, never the run's failure). Made by `verification::timing`,
//! rendered by every reporter.

use std::fmt;
use std::time::Duration;

use super::seconds;
use super::verified::SkipReason;
use crate::build::HostError;
use crate::escape::visible_line;
use crate::judging::Verdict;
use crate::package::limits::{Margin, TimeLimitError};

/// One package's timing.
#[derive(Debug)]
pub struct PackageTiming {
    pub name: String,
    /// Its folder, as shown.
    pub origin: String,
    /// The submissions the limit is computed from, in order.
    pub submissions: Vec<TimedSubmission>,
    /// The limit the slowest run of all makes, or why there is none.
    pub limit: Result<Limit, TimeLimitError>,
    /// Each other submission that bounds the limit, by its path, and what its run says.
    pub bounds: Vec<(String, Bound)>,
    /// `--write`: what was done to `problem.yaml`.
    pub written: Option<String>,
}

impl PackageTiming {
    /// Whether the limit was had: every timing run of the accepted submissions accepted, and a
    /// limit made of them. A submission that does not keep its side of that limit is told, not
    /// failed, as `bt time_limit` tells it: the limit comes from the accepted submissions alone.
    pub fn fine(&self) -> bool {
        self.submissions.iter().all(|s| s.trouble.is_empty()) && self.limit.is_ok()
    }
}

/// One accepted submission's timing.
#[derive(Debug)]
pub struct TimedSubmission {
    /// Its path below `submissions/`.
    pub id: String,
    /// Per run: the slowest case's CPU time and the case.
    pub slowest: Vec<(Duration, String)>,
    /// What kept its runs from timing the limit, each said once.
    pub trouble: Vec<Trouble>,
}

/// Why an accepted submission's run does not time the limit.
#[derive(Debug)]
pub enum Trouble {
    /// It was not run: it does not compile (the compiler's message).
    CompileError(String),
    /// It was not run: why it was skipped, as `verify`'s row keeps it.
    Skipped(SkipReason),
    /// The host failed to build it.
    Unbuilt(HostError),
    /// A run that was not accepted: its verdict, the case, and why.
    Failed {
        verdict: Verdict,
        case: String,
        why: String,
    },
}

impl fmt::Display for Trouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trouble::CompileError(message) => f.write_str(&visible_line(message)),
            Trouble::Skipped(why) => f.write_str(&visible_line(&why.to_string())),
            Trouble::Unbuilt(error) => error.fmt(f),
            Trouble::Failed { verdict, case, why } => {
                write!(f, "{verdict} on {case}: {}", visible_line(why))
            }
        }
    }
}

/// The limit computed, and what it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub limit: Duration,
    pub ac_to_time_limit: f64,
    pub time_resolution: Duration,
    /// The limit `problem.yaml` fixes now, if any.
    pub fixed: Option<Duration>,
}

impl fmt::Display for Limit {
    /// `1s (the slowest run × ac_to_time_limit 2, rounded up to 1s); problem.yaml sets none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (the slowest run × ac_to_time_limit {}, rounded up to {})",
            seconds(self.limit),
            self.ac_to_time_limit,
            seconds(self.time_resolution)
        )?;
        match self.fixed {
            Some(fixed) if fixed != self.limit => write!(
                f,
                "; problem.yaml has {}s",
                crate::package::time_limit_edit::yaml_seconds(fixed.as_secs_f64())
            ),
            Some(_) => f.write_str("; problem.yaml has the same"),
            None => f.write_str("; problem.yaml sets none"),
        }
    }
}

/// What one run of a submission that bounds the limit says of it, run at the limit's timeout.
#[derive(Debug)]
pub enum Bound {
    /// The wall clock stopped it before its CPU time reached the timeout: it waits, or the
    /// machine was too busy to tell.
    WallStopped { timeout: Duration },
    /// A time-limit-exceeded one stopped at the timeout: its margin is kept.
    Stopped { timeout: Duration, tle: f64 },
    /// A time-limit-exceeded one that finished within the limit.
    WithinLimit { slowest: Duration },
    /// A time-limit-exceeded one over the limit, but closer to it than `time_limit_to_tle`.
    TooClose {
        slowest: Duration,
        ratio: f64,
        tle: f64,
    },
    /// One that may not get TLE, over the limit (stopped at the timeout, or not).
    Over { slowest: Duration, stopped: bool },
    /// One that may not get TLE, within the limit and its margin.
    Room { slowest: Duration },
    /// One that may not get TLE, within the limit but not its margin: told, not failed (the
    /// limit is computed from the accepted submissions alone), with the limit it would make.
    ThinRoom {
        margin: Margin,
        would_make: Result<Duration, TimeLimitError>,
    },
}

impl Bound {
    /// Whether the submission keeps its side of the limit.
    pub fn kept(&self) -> bool {
        matches!(
            self,
            Bound::Stopped { .. } | Bound::Room { .. } | Bound::ThinRoom { .. }
        )
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::WallStopped { timeout } => write!(
                f,
                "stopped by the wall clock before its CPU time reached the timeout {}: it \
                 waits, or the machine was too busy to tell (try fewer --jobs)",
                seconds(*timeout)
            ),
            Bound::Stopped { timeout, tle } => write!(
                f,
                "stopped at the timeout {} (at least {tle:.2}× the limit): margin kept",
                seconds(*timeout)
            ),
            Bound::WithinLimit { slowest } => write!(
                f,
                "too fast for this limit: its slowest case takes {}, within it, so it would not \
                 get TLE with it",
                seconds(*slowest)
            ),
            Bound::TooClose {
                slowest,
                ratio,
                tle,
            } => write!(
                f,
                "too fast for this limit: its slowest case {} = {ratio:.2}× the limit, under \
                 time_limit_to_tle {tle}: too close to it",
                seconds(*slowest)
            ),
            Bound::Over { slowest, stopped } => write!(
                f,
                "too slow for this limit: over it ({}{}), and it may not get TLE, so it must \
                 finish within it",
                seconds(*slowest),
                if *stopped {
                    ", stopped at the timeout"
                } else {
                    ""
                }
            ),
            Bound::Room { slowest } => write!(
                f,
                "slowest case {}: within the limit and its margin",
                seconds(*slowest)
            ),
            Bound::ThinRoom { margin, would_make } => write!(
                f,
                "{margin}; the format and bt time_limit count it as a lower bound, which would \
                 make the limit {}, while grundy computes it from the accepted submissions \
                 alone, as problemtools does",
                would_make
                    .as_ref()
                    .map_or_else(ToString::to_string, |limit| seconds(*limit))
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_says_where_it_comes_from_and_what_problem_yaml_has() {
        let limit = Limit {
            limit: Duration::from_secs(2),
            ac_to_time_limit: 2.0,
            time_resolution: Duration::from_secs(1),
            fixed: Some(Duration::from_millis(1500)),
        };
        assert_eq!(
            limit.to_string(),
            "2s (the slowest run × ac_to_time_limit 2, rounded up to 1s); problem.yaml has 1.5s"
        );
        let same = Limit {
            fixed: Some(Duration::from_secs(2)),
            ..limit
        };
        assert!(same.to_string().ends_with("; problem.yaml has the same"));
    }

    #[test]
    fn a_bound_is_kept_only_on_its_side_of_the_limit() {
        let slowest = Duration::from_millis(300);
        assert!(Bound::Room { slowest }.kept());
        assert!(!Bound::WithinLimit { slowest }.kept());
        assert!(!Bound::Over {
            slowest,
            stopped: true
        }
        .kept());
        assert_eq!(
            Bound::Over {
                slowest,
                stopped: false
            }
            .to_string(),
            "too slow for this limit: over it (0.3s), and it may not get TLE, so it must finish \
             within it"
        );
    }
}
