//! A package's time limit by the one rule every command follows (see
//! [`crate::model::TimeLimit`]): `--time-limit`; else the package's own; else the one computed
//! from its accepted submissions' CPU times, as `verify` computes it
//! ([`crate::verification::time_limit::computed`]) from the runs an earlier command recorded
//! ([`crate::verification::timing_cache`]), or, where none did, from runs made now (the
//! submissions built and timed on the pool, as `verify` times them first) and recorded for the
//! next command. A package with no accepted submission to time has no limit but the flag's.

use std::sync::Arc;
use std::time::Duration;

use crate::build::BuildJobs;
use crate::config::Settings;
use crate::model::{Fixed, Problem, TimeLimit};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::verification::judge::runs_of;
use crate::verification::time_limit::{computed, computes_the_limit, slowest_accepted, GENEROUS};
use crate::verification::timing_cache;

/// `problem`'s time limit as far as it is known without running anything: the flag's, its own,
/// none (nothing to time), or the one computed from the accepted runs an earlier command
/// recorded; `None` when its accepted submissions are still to be timed.
pub fn known(problem: &Problem, flag: Option<Duration>) -> Option<TimeLimit> {
    if let Some(limit) = flag {
        return Some(TimeLimit::fixed(limit, Fixed::Flag));
    }
    if let Some(limit) = problem.limits.time_limit {
        return Some(TimeLimit::fixed(limit, problem.time_limit_source));
    }
    if !problem.submissions.iter().any(computes_the_limit) {
        return Some(computed(problem, None, false));
    }
    let key = timing_cache::key(problem)?;
    let slowest = timing_cache::recorded(problem, &key)?;
    Some(computed(problem, Some(slowest), true))
}

/// The time limits of `problems` (packages whose limit [`known`] does not know), each computed
/// from its accepted submissions, built and timed now on `pool` under its `settings` (only
/// those: the others are not run), and recorded for the next command. Stops only for Ctrl-C or
/// the host.
pub fn timed(
    mut problems: Vec<Problem>,
    settings: &[Settings],
    pool: &Pool,
) -> Result<Vec<TimeLimit>, Stop> {
    for problem in &mut problems {
        crate::reporting::notes::note(format_args!(
            "`{}` fixes no time limit: its accepted submissions are timed to compute it, as \
             `verify` computes it (and kept for the next command)",
            problem.name
        ));
        problem.submissions.retain(computes_the_limit);
    }
    let problems = Arc::new(problems);
    let jobs = Arc::new(BuildJobs::new(problems.iter()));
    let built = pool.run(
        Arc::clone(&jobs),
        jobs.len(),
        "building accepted submissions",
    )?;
    let builds = jobs.collect(built);
    let generous = |_: usize, _: &Problem, _: &_| Some(GENEROUS);
    let judgings = runs_of(
        &problems,
        settings,
        &builds,
        pool,
        "timing accepted submissions",
        generous,
    )?;
    let limits = problems.iter().zip(&judgings).map(|(problem, judging)| {
        let slowest = slowest_accepted(problem, judging);
        if let (Some(slowest), Some(key)) = (slowest, timing_cache::key(problem)) {
            // Not recorded (the host's failure): the next command times them again.
            let _ = timing_cache::record(problem, &key, slowest);
        }
        computed(problem, slowest, false)
    });
    Ok(limits.collect())
}
