//! `grundy timelimit [PKG]...`, as BAPCtools' `bt time_limit`: a package's accepted submissions
//! (those grundy computes the limit from: [`time_limit::computes_the_limit`]) run `--runs` times
//! on every case; the report gives, per submission, its slowest case's CPU time in each run and
//! their spread, the time limit the format's rules make of the slowest, the margin every
//! time-limit-exceeded submission keeps above it, and the room every other submission that bounds
//! the limit from below keeps under it (both run once, stopped at the limit ×
//! `time_limit_to_tle`, never longer). With `--write` the limit goes into `problem.yaml`
//! (package/time_limit_edit.rs keeps the rest of the file). It shares verify's stages (building,
//! judging) and owns only the timing and what is reported of it (as `reporting::timed`'s data,
//! which the reporters render); `commands::timelimit` is its front-end (which packages, the
//! flags, the reporters).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;

use super::results::{Judged, Judging};
use super::{judge, time_limit, timing_cache};
use crate::build::BuildJobs;
use crate::config::Settings;
use crate::files::beneath::{Scope, Tree};
use crate::files::Existing;
use crate::judging::Verdict;
use crate::model::Problem;
use crate::package::limits::{Limits, TimeLimitError};
use crate::package::submissions::Submission;
use crate::package::time_limit_edit::{set_time_limit, yaml_seconds};
use crate::reporting::timed::{Bound, Limit, PackageTiming, TimedSubmission, Trouble};
use crate::running::pool::Stop;
use crate::running::Clock;
use crate::stages::Pool;

/// Each problem's timing: its programs built, the submissions the limit comes from run `runs`
/// times, then the other submissions that bound the limit from below run once at its timeout,
/// each problem's under its `settings`; per problem, what the timing runs found and what that
/// one run found.
pub fn time(
    problems: &Arc<Vec<Problem>>,
    settings: &[Settings],
    pool: &Pool,
    runs: u32,
) -> Result<Vec<(ProblemTiming, Judging)>, Stop> {
    let build_jobs = Arc::new(BuildJobs::new(problems.iter()));
    let built = pool.run(Arc::clone(&build_jobs), build_jobs.len(), "building")?;
    let builds = build_jobs.collect(built);

    let mut rounds: Vec<Vec<Judging>> = vec![];
    for round in 1..=runs {
        let what = format!("timing, run {round} of {runs}");
        rounds.push(judge::runs_of(
            problems,
            settings,
            &builds,
            pool,
            &what,
            |_, _, s| time_limit::computes_the_limit(s).then_some(time_limit::GENEROUS),
        )?);
    }
    let timings: Vec<ProblemTiming> = problems
        .iter()
        .enumerate()
        .map(|(p, problem)| ProblemTiming::of(problem, rounds.iter().map(|r| &r[p])))
        .collect();
    // What `check`, `list` and `stress` judge with next, as `verify` records its timing.
    for (problem, timing) in problems.iter().zip(&timings) {
        if let (Some(slowest), Some(key)) = (timing.slowest, timing_cache::key(problem)) {
            // Not recorded (the host's failure): the next command times them again.
            let _ = timing_cache::record(problem, &key, slowest);
        }
    }
    let over = judge::runs_of(
        problems,
        settings,
        &builds,
        pool,
        "timing the other submissions that bound the limit",
        |p, problem, s| {
            let limit = timings[p].limit.as_ref().ok()?;
            bound_by_one_run(s).then(|| problem.limits.timeout(*limit))
        },
    )?;

    Ok(timings.into_iter().zip(over).collect())
}

/// What the timing runs of one problem found.
pub struct ProblemTiming {
    submissions: Vec<TimedSubmission>,
    /// The slowest run of all, the limit's.
    slowest: Option<Duration>,
    /// The limit the format's rules give for the slowest run of all, or why there is none.
    pub limit: Result<Duration, TimeLimitError>,
}

impl ProblemTiming {
    fn of<'a>(problem: &Problem, rounds: impl Iterator<Item = &'a Judging>) -> ProblemTiming {
        let mut submissions: Vec<TimedSubmission> = problem
            .submissions
            .iter()
            .filter(|s| time_limit::computes_the_limit(s))
            .map(|s| TimedSubmission {
                id: s.id.clone(),
                slowest: vec![],
                trouble: vec![],
            })
            .collect();
        for judging in rounds {
            let lower = problem
                .submissions
                .iter()
                .zip(&judging.submissions)
                .filter(|(s, _)| time_limit::computes_the_limit(s));
            for (timed, (_, judged)) in submissions.iter_mut().zip(lower) {
                let runs = match judged {
                    Judged::Runs(runs) => runs,
                    Judged::CompileError(why) => {
                        once(&mut timed.trouble, Trouble::CompileError(why.clone()));
                        continue;
                    }
                    Judged::Skipped(why) => {
                        once(&mut timed.trouble, Trouble::Skipped(why.clone().into()));
                        continue;
                    }
                    Judged::HostError(error) => {
                        once(&mut timed.trouble, Trouble::Unbuilt(error.clone()));
                        continue;
                    }
                };
                let ran = problem
                    .cases
                    .iter()
                    .zip(runs)
                    .filter_map(|(c, r)| Some((c, r.as_ref()?)));
                let mut slowest = (Duration::ZERO, String::new());
                for (case, run) in ran {
                    if run.verdict != Verdict::AC {
                        let failed = Trouble::Failed {
                            verdict: run.verdict,
                            case: case.id().to_string(),
                            why: run.message.clone().unwrap_or_default(),
                        };
                        once(&mut timed.trouble, failed);
                    }
                    if run.time >= slowest.0 {
                        slowest = (run.time, case.id().to_string());
                    }
                }
                timed.slowest.push(slowest);
            }
        }
        let slowest = submissions
            .iter()
            .flat_map(|t| t.slowest.iter().map(|s| s.0))
            .max();
        ProblemTiming {
            submissions,
            slowest,
            limit: computed(&problem.limits).time_limit(slowest, None),
        }
    }
}

/// `limits` with no fixed time limit: the format's rule for a computed one, whatever
/// problem.yaml fixes now.
fn computed(limits: &Limits) -> Limits {
    Limits {
        time_limit: None,
        ..limits.clone()
    }
}

/// The same trouble in several runs is said once.
fn once(trouble: &mut Vec<Trouble>, new: Trouble) {
    let said = new.to_string();
    if !trouble.iter().any(|t| t.to_string() == said) {
        trouble.push(new);
    }
}

/// What is reported of one problem's timing (without `--write`'s line).
pub fn report(problem: &Problem, timing: ProblemTiming, over: &Judging) -> PackageTiming {
    let limits = &problem.limits;
    let mut report = PackageTiming {
        name: problem.name.clone(),
        origin: crate::model::shown(&problem.root),
        submissions: timing.submissions,
        limit: timing.limit.map(|limit| Limit {
            limit,
            ac_to_time_limit: limits.ac_to_time_limit,
            time_resolution: limits.time_resolution,
            fixed: limits.time_limit,
        }),
        bounds: vec![],
        written: None,
    };
    let Ok(Limit { limit, .. }) = report.limit else {
        return report;
    };
    let timeout = limits.timeout(limit);
    for (submission, judged) in problem.submissions.iter().zip(&over.submissions) {
        let Judged::Runs(runs) = judged else { continue };
        if !bound_by_one_run(submission) {
            continue;
        }
        let ran: Vec<_> = runs.iter().flatten().collect();
        let Some(slowest) = ran.iter().map(|r| r.time).max() else {
            continue;
        };
        let stopped = ran.iter().any(|r| r.verdict == Verdict::TLE);
        let bound = if ran.iter().any(|r| r.stopped_by == Some(Clock::Wall)) {
            Bound::WallStopped { timeout }
        } else if time_limit::role(submission).lower {
            below(limits, limit, slowest, stopped)
        } else {
            above(limits, limit, slowest, stopped)
        };
        report.bounds.push((submission.id.clone(), bound));
    }
    report
}

/// Whether `submission` runs once, at the computed limit's timeout, to see whether it keeps its
/// side of the limit: a time-limit-exceeded one, or one that bounds the limit from below without
/// computing it (a `wrong_answer/` one of the newer formats), never run longer than that.
fn bound_by_one_run(submission: &Submission) -> bool {
    let role = time_limit::role(submission);
    (role.upper && !role.lower) || (role.lower && !time_limit::computes_the_limit(submission))
}

/// What the run of a time-limit-exceeded submission (its `slowest` case; `stopped` at the
/// timeout) says of its margin above `limit`.
fn above(limits: &Limits, limit: Duration, slowest: Duration, stopped: bool) -> Bound {
    if stopped {
        Bound::Stopped {
            timeout: limits.timeout(limit),
            tle: limits.time_limit_to_tle,
        }
    } else if slowest <= limit {
        Bound::WithinLimit { slowest }
    } else {
        Bound::TooClose {
            slowest,
            ratio: slowest.as_secs_f64() / limit.as_secs_f64(),
            tle: limits.time_limit_to_tle,
        }
    }
}

/// What the run of another submission that bounds the limit from below says of its room under
/// `limit` (too little room is told, not failed: the limit is computed from the accepted
/// submissions alone).
fn below(limits: &Limits, limit: Duration, slowest: Duration, stopped: bool) -> Bound {
    if stopped || slowest > limit {
        return Bound::Over { slowest, stopped };
    }
    match limits
        .rule()
        .margin_warning(limit, slowest, "its slowest case")
    {
        None => Bound::Room { slowest },
        Some(margin) => Bound::ThinRoom {
            margin,
            would_make: computed(limits).time_limit(Some(slowest), None),
        },
    }
}

/// Sets the problem's `limits.time_limit` to `limit` in its problem.yaml; what was done.
pub fn write_limit(problem: &Problem, limit: Duration) -> Result<String> {
    let seconds = limit.as_secs_f64();
    if problem
        .limits
        .time_limit
        .is_some_and(|fixed| fixed == limit)
    {
        return Ok("problem.yaml: limits.time_limit already set to it".into());
    }
    let tree = Tree::open(&problem.root, Scope::Package)?;
    let file = tree.join("problem.yaml");
    let text = String::from_utf8(file.read()?)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", file.path().display()))?;
    let edited = set_time_limit(&text, seconds)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.path().display()))?;
    // Beneath the package, as it was read: never through a link swapped in meanwhile.
    file.write(edited.as_bytes(), Existing::Replace)?;
    Ok(format!(
        "problem.yaml: limits.time_limit set to {}",
        yaml_seconds(seconds)
    ))
}
