//! A problem's time limit: the package's own when it fixes one, else computed from the slowest
//! run of its accepted submissions (run first, with a generous timeout) by
//! [`crate::package::limits::Limits::time_limit`]; and, once everything ran, the runs the
//! format's margins are checked from ([`margin_facts`]; the check,
//! [`crate::reporting::findings::margin_findings`], is `report merge`'s too): the fastest
//! time-limit-exceeded submission must sit far enough above the limit (an error), and the slowest
//! run of every submission that bounds it from below far enough below it (a warning); and the runs close enough to the limit that another machine could judge them the
//! other way. Every time here is CPU time (a run stopped by the wall clock carries its wall time),
//! so the limit does not depend on the machine's load.
//!
//! Which submissions compute the limit: the ones that may only be accepted, as problemtools
//! computes it. The newer formats count every submission that may not get TLE as a lower bound
//! (`wrong_answer/` and `run_time_error/` too), and BAPCtools' `bt time_limit` computes the limit
//! from all of them; but a submission that is not accepted is anyone's program, and run with the
//! generous timeout it could take a minute of every case. So those run with the others, stopped at
//! the computed limit's timeout, and one too slow for the limit is told in a warning (or fails its
//! expectation as TLE).

use std::time::Duration;

use super::results::{Judged, Judging};
use crate::judging::CaseRun;
use crate::judging::Verdict;
use crate::model::{How, MarginFacts, Problem, SlowestRun, TimeLimit};
use crate::package::expectations::{self, TimeLimitRole};
use crate::package::submissions::Submission;
use crate::reporting::findings::JudgingWarning;

/// How long a submission may run while the time limit is being computed from it.
pub const GENEROUS: Duration = Duration::from_secs(60);

/// Whether the limit is computed from `submission`'s runs: an accepted one, that may only be
/// accepted and bounds the limit from below (no `use_for_time_limit: false`).
pub fn computes_the_limit(submission: &Submission) -> bool {
    submission.expectation.as_ref().is_some_and(|e| {
        e.time_limit_role().lower
            && e.final_verdicts() == expectations::Verdicts::from([expectations::Verdict::AC])
    })
}

/// Whether `submission` runs before the others, the problem's limit being computed from it.
pub fn runs_first(problem: &Problem, submission: &Submission) -> bool {
    problem.limits.time_limit.is_none() && computes_the_limit(submission)
}

/// The limit to judge with (or why there is none), and how it came about, for the report: the
/// fixed one, or the one computed from the accepted runs in `judging`.
pub fn limit(problem: &Problem, judging: &Judging) -> TimeLimit {
    match problem.limits.time_limit {
        Some(limit) => TimeLimit::fixed(limit, problem.time_limit_source),
        None => computed(problem, slowest_accepted(problem, judging), false),
    }
}

/// The slowest finished run of the submissions the limit is computed from, in `judging` (those
/// of other buckets timed too, under `--partition`).
pub fn slowest_accepted(problem: &Problem, judging: &Judging) -> Option<Duration> {
    let here = slowest(problem, judging, computes_the_limit).map(|(_, time)| time);
    here.max(judging.timed_elsewhere)
}

/// The limit the format's rule makes of `slowest`, the slowest accepted run (`None`: none was
/// timed); `cached`: it was timed by an earlier command.
pub fn computed(problem: &Problem, slowest: Option<Duration>, cached: bool) -> TimeLimit {
    let limits = &problem.limits;
    let (factor, step) = (limits.ac_to_time_limit, limits.time_resolution);
    TimeLimit {
        limit: limits.time_limit(slowest, None),
        how: How::Computed {
            factor,
            step,
            near_step: slowest.is_some_and(|slowest| near_a_step(slowest, factor, step)),
            cached,
        },
    }
}

/// Whether `slowest` × `factor` lies within 10% of a multiple of `step`: a computed limit that a
/// slightly faster or slower run would round to another step.
fn near_a_step(slowest: Duration, factor: f64, step: Duration) -> bool {
    let steps = slowest.as_secs_f64() * factor / step.as_secs_f64();
    let nearest = steps.round();
    nearest >= 1.0 && (steps - nearest).abs() <= 0.1 * nearest
}

/// What the time limit's findings are computed from ([`margin_findings`]), once every run has
/// its final verdict.
///
/// [`margin_findings`]: crate::reporting::findings::margin_findings
pub fn margin_facts(problem: &Problem, judging: &Judging) -> MarginFacts {
    let slowest_run = |submission: &Submission, time| SlowestRun {
        submission: submission.id.clone(),
        time,
        computes_the_limit: computes_the_limit(submission),
    };
    // The fastest time-limit-exceeded submission: the slowest run of each one that got TLE.
    let fastest_tle = runs_of(problem, judging, |s| role(s).upper)
        .filter(|(_, runs)| runs.iter().flatten().any(|r| r.verdict == Verdict::TLE))
        .filter_map(|(s, runs)| Some((s, runs.iter().flatten().map(|r| r.time).max()?)))
        .min_by_key(|(_, time)| *time)
        .map(|(s, time)| slowest_run(s, time));
    MarginFacts {
        rule: problem.limits.rule(),
        slowest_accepted: slowest_accepted(problem, judging),
        fastest_tle,
        slowest_lower: slowest(problem, judging, |s| role(s).lower)
            .map(|(s, time)| slowest_run(s, time)),
    }
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
) -> Vec<JudgingWarning> {
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
            calls.push(JudgingWarning::CloseCall {
                submission: submission.id.clone(),
                case: case.id().to_string(),
                time: run.time,
                verdict: run.verdict,
                limit,
            });
        }
    }
    calls
}

/// The slowest finished run (not stopped as TLE) of the submissions `wanted` picks, and whose.
fn slowest<'a>(
    problem: &'a Problem,
    judging: &'a Judging,
    wanted: impl Fn(&Submission) -> bool + 'a,
) -> Option<(&'a Submission, Duration)> {
    runs_of(problem, judging, wanted)
        .flat_map(|(submission, runs)| runs.iter().flatten().map(move |run| (submission, run)))
        .filter(|(_, run)| run.verdict != Verdict::TLE)
        .map(|(submission, run)| (submission, run.time))
        .max_by_key(|(_, time)| *time)
}

/// The case runs of each judged submission `wanted` picks.
fn runs_of<'a>(
    problem: &'a Problem,
    judging: &'a Judging,
    wanted: impl Fn(&Submission) -> bool + 'a,
) -> impl Iterator<Item = (&'a Submission, &'a [Option<CaseRun>])> + 'a {
    problem
        .submissions
        .iter()
        .zip(&judging.submissions)
        .filter(move |(submission, _)| wanted(submission))
        .filter_map(|(submission, judged)| match judged {
            Judged::Runs(runs) => Some((submission, runs.as_slice())),
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
