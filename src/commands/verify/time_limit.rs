//! A problem's time limit: the package's own when it fixes one, else computed from the slowest
//! run of the submissions that bound it from below (the accepted ones, run first with a generous
//! timeout) by [`crate::package::limits::Limits::time_limit`]; and, once everything ran, the
//! format's margins checked: the fastest time-limit-exceeded submission must sit far enough above
//! the limit, and the slowest accepted run far enough below it (only a warning when the package
//! fixed the limit itself); and the runs close enough to the limit that another machine could
//! judge them the other way. Every time here is CPU time (a run stopped by the wall clock
//! carries its wall time), so the limit does not depend on the machine's load.

use std::time::Duration;

use super::model::Problem;
use super::results::{seconds, CaseRun, Judged, Judging};
use crate::judging::Verdict;
use crate::package::expectations::TimeLimitRole;
use crate::package::limits::TimeLimitError;
use crate::package::submissions::Submission;

/// How long a submission may run while the time limit is being computed from it.
pub const GENEROUS: Duration = Duration::from_secs(60);

/// Whether `submission` runs before the others when the limit is computed from it.
pub fn times_the_limit(problem: &Problem, submission: &Submission) -> bool {
    problem.limits.time_limit.is_none() && role(submission).lower
}

/// The limit to judge with (or why there is none), and how it came about, for the report.
pub fn limit(problem: &Problem, judging: &Judging) -> (Result<Duration, TimeLimitError>, String) {
    let limits = &problem.limits;
    match limits.time_limit {
        Some(limit) => {
            let line = format!("{} ({})", seconds(limit), problem.time_limit_source);
            (Ok(limit), line)
        }
        None => match limits.time_limit(slowest_accepted(problem, judging), None) {
            Ok(limit) => {
                let mut line = format!(
                    "{} (computed: the slowest accepted run × {}, rounded up to {})",
                    seconds(limit),
                    limits.ac_to_time_limit,
                    seconds(limits.time_resolution)
                );
                let slowest = slowest_accepted(problem, judging).unwrap_or_default();
                if near_a_step(slowest, limits.ac_to_time_limit, limits.time_resolution) {
                    line += "; the slowest run is within 10% of a rounding step, so another run \
                             may give the next one: fix it in problem.yaml (grundy timelimit \
                             --write)";
                }
                (Ok(limit), line)
            }
            Err(why) => (Err(why), "none".into()),
        },
    }
}

/// Whether `slowest` × `factor` lies within 10% of a multiple of `step` (seconds): a computed
/// limit that a slightly faster or slower run would round to another step.
fn near_a_step(slowest: Duration, factor: f64, step: Duration) -> bool {
    let steps = slowest.as_secs_f64() * factor / step.as_secs_f64();
    let nearest = steps.round();
    nearest >= 1.0 && (steps - nearest).abs() <= 0.1 * nearest
}

/// Why the limit is outside the format's margins, once every run has its final verdict.
pub fn margins(problem: &Problem, judging: &Judging) -> Option<TimeLimitError> {
    // The fastest time-limit-exceeded submission: the slowest run of each one that got TLE.
    let fastest_tle = runs_by_role(problem, judging, |role| role.upper)
        .filter(|runs| runs.iter().flatten().any(|r| r.verdict == Verdict::TLE))
        .filter_map(|runs| runs.iter().flatten().map(|r| r.time).max())
        .min();
    let slowest = slowest_accepted(problem, judging);
    problem.limits.time_limit(slowest, fastest_tle).err()
}

/// Why a fixed limit leaves the slowest accepted run too little room, if it does.
pub fn thin_fixed_margin(problem: &Problem, judging: &Judging) -> Option<String> {
    let slowest = slowest_accepted(problem, judging);
    problem.limits.fixed_margin_warning(slowest)
}

/// How near the limit a run must be, either side, to be called close (a tenth of it).
const CLOSE: f64 = 0.1;

/// The runs that finished within [`CLOSE`] of `limit` on either side (runs stopped at the
/// `timeout` are far past it), as warnings: their verdicts could flip on another machine.
pub fn close_calls(
    problem: &Problem,
    judging: &Judging,
    limit: Duration,
    timeout: Duration,
) -> Vec<String> {
    let near = |time: Duration| {
        time < timeout
            && (time.as_secs_f64() - limit.as_secs_f64()).abs() <= CLOSE * limit.as_secs_f64()
    };
    let mut calls = Vec::new();
    for (submission, judged) in problem.submissions.iter().zip(&judging.submissions) {
        let Judged::Runs(runs) = judged else { continue };
        for (case, run) in problem.cases.iter().zip(runs) {
            let Some(run) = run.as_ref().filter(|run| near(run.time)) else {
                continue;
            };
            calls.push(format!(
                "close to the time limit: {} on {} used {} of CPU time ({}, limit {})",
                submission.id,
                case.id,
                seconds(run.time),
                run.verdict,
                seconds(limit)
            ));
        }
    }
    calls
}

/// The slowest finished run of the submissions that bound the limit from below.
fn slowest_accepted(problem: &Problem, judging: &Judging) -> Option<Duration> {
    runs_by_role(problem, judging, |role| role.lower)
        .flat_map(|runs| runs.iter().flatten())
        .filter(|run| run.verdict != Verdict::TLE)
        .map(|run| run.time)
        .max()
}

/// The case runs of each judged submission whose time-limit role `wanted` picks.
fn runs_by_role<'a>(
    problem: &'a Problem,
    judging: &'a Judging,
    wanted: impl Fn(TimeLimitRole) -> bool + 'a,
) -> impl Iterator<Item = &'a [Option<CaseRun>]> + 'a {
    problem
        .submissions
        .iter()
        .zip(&judging.submissions)
        .filter(move |(submission, _)| wanted(role(submission)))
        .filter_map(|(_, judged)| match judged {
            Judged::Runs(runs) => Some(runs.as_slice()),
            _ => None,
        })
}

pub fn role(submission: &Submission) -> TimeLimitRole {
    submission
        .expectation
        .as_ref()
        .map(|e| e.time_limit_role())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slowest_run_near_a_rounding_step_is_told_apart() {
        let ms = Duration::from_millis;
        // × 5 rounded up to 1 s: 194 ms gives 0.97 s (1 s) and 216 ms 1.08 s (2 s).
        assert!(near_a_step(ms(194), 5.0, ms(1000)));
        assert!(near_a_step(ms(216), 5.0, ms(1000)));
        assert!(
            !near_a_step(ms(150), 5.0, ms(1000)),
            "0.75 s: 1 s either way"
        );
        assert!(
            !near_a_step(ms(300), 5.0, ms(1000)),
            "1.5 s: 2 s either way"
        );
        assert!(
            !near_a_step(ms(10), 2.0, ms(1000)),
            "far below the first step"
        );
        assert!(
            near_a_step(ms(740), 2.0, ms(500)),
            "1.48 s, a hair below the step of 1.5 s"
        );
    }
}
