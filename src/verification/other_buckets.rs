//! Under `verify --partition`, the accepted submissions of other buckets that a package's
//! computed time limit comes from: each bucket builds and times them too (with the generous
//! timeout, as one run times its own first) and keeps only their slowest run, so that every
//! bucket judges with the limit one run would compute from all of them, and `report merge`
//! finds one limit. Their runs are not reported: they are other buckets' to judge. A package
//! whose limit is fixed needs none of this.

use std::sync::Arc;
use std::time::Duration;

use super::{judge, time_limit};
use crate::build::BuildJobs;
use crate::config::Settings;
use crate::model::Problem;
use crate::package::submissions::Submission;
use crate::running::pool::Stop;
use crate::stages::Pool;

/// The slowest run of each problem's `elsewhere` submissions (those of other buckets its limit
/// is computed from, as [`super::select::partition`] returns them), under its `settings`:
/// `None` for a problem with none, or none that ran to its end.
pub fn timed(
    problems: &[Problem],
    elsewhere: Vec<Vec<Submission>>,
    settings: &[Settings],
    pool: &Pool,
) -> Result<Vec<Option<Duration>>, Stop> {
    let mut slowest = vec![None; problems.len()];
    let (mut timed, mut timed_settings, mut at) = (vec![], vec![], vec![]);
    for (p, submissions) in elsewhere.into_iter().enumerate() {
        if !submissions.is_empty() {
            timed.push(Problem {
                submissions,
                ..problems[p].clone()
            });
            timed_settings.push(settings[p].clone());
            at.push(p);
        }
    }
    if timed.is_empty() {
        return Ok(slowest);
    }
    let timed = Arc::new(timed);
    let build_jobs = Arc::new(BuildJobs::new(timed.iter()));
    let what = "building the accepted submissions of other buckets";
    let built = pool.run(Arc::clone(&build_jobs), build_jobs.len(), what)?;
    let builds = build_jobs.collect(built);
    let judgings = judge::runs_of(
        &timed,
        &timed_settings,
        &builds,
        pool,
        "timing the accepted submissions of other buckets",
        |_, _, submission| {
            time_limit::computes_the_limit(submission).then_some(time_limit::GENEROUS)
        },
    )?;
    for ((problem, judging), p) in timed.iter().zip(&judgings).zip(at) {
        slowest[p] = time_limit::slowest_accepted(problem, judging);
    }
    Ok(slowest)
}
