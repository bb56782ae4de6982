//! `grundy timelimit [PKG]...`: the front-end of [`crate::verification::timing`] (the packages
//! named, else the one around the current folder; containment, the pool), each package's timing
//! reported as a unit of the run once all are timed, `--write`, and how it ended: failed when a
//! package's limit could not be had (no accepted run, or one that was not accepted; a submission
//! on the wrong side of the limit is a warning, as `bt time_limit` says it), incomplete when a
//! package could not be read, cancelled after Ctrl-C.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::cli::{Sources, TimeLimitArgs};
use crate::commands::error::CommandError;
use crate::config::{Isolate, Overrides};
use crate::reporting::findings::Unreadable;
use crate::reporting::{Ended, Finished, RunKind, Summary};
use crate::stages::Pool;
use crate::verification::timing;

pub fn run(
    args: TimeLimitArgs,
    color: bool,
    cancel: Arc<AtomicBool>,
) -> Result<Ended, CommandError> {
    let targets = match args.packages.is_empty() {
        true => vec![super::verify::default_package()?],
        false => args.packages.clone(),
    };
    let crate::model::Packages {
        problems,
        unreadable,
        skipped,
    } = crate::model::packages(&targets);
    super::setup::note_skipped(&skipped);
    if problems.is_empty() {
        // Said once, as the command's error: what could not be read, and what to give.
        let mut why: Vec<String> = unreadable.iter().map(|(_, e)| e.to_string()).collect();
        why.push("give a package folder (holding problem.yaml) or a contest folder".into());
        return Err(anyhow::anyhow!("no package to time: {}", why.join("; ")).into());
    }
    // runner.toml's (the nearest at or above the current folder, as `verify` reads it) where it
    // applies to a package's cases.
    let sources = Sources {
        fixtures: None,
        config: None,
    };
    let config = super::setup::load_config(&sources, Overrides::default())?;
    let settings = super::setup::judged_settings(&config, &problems, &Overrides::default());
    super::setup::containment_check(
        args.isolate
            .as_deref()
            .map(Isolate::from_flag)
            .unwrap_or_default(),
    )?;
    let (mut dispatch, stages) = super::setup::dispatcher(args.format, None, None, color, cancel);
    let jobs = crate::config::worker_count(args.jobs);
    let pool = Pool::new(dispatch.pool_options(jobs), stages);
    let unreadable = (unreadable.into_iter())
        .map(|(root, error)| Unreadable::at(&root, error))
        .collect();
    dispatch.run_started(&RunKind::Timelimit { unreadable });
    let problems = Arc::new(problems);
    let timed = match timing::time(&problems, &settings, &pool, args.runs) {
        Ok(timed) => timed,
        Err(stop) => return Ok(dispatch.finish(Err(stop), Summary::default())?),
    };
    for (problem, (timing, over)) in problems.iter().zip(timed) {
        let limit = timing.limit.as_ref().ok().copied();
        let mut report = timing::report(problem, timing, &over);
        // `--write` after the report is made, and the report says what it did; a write that
        // fails ends the run after its package's report.
        let written = match (args.write, limit) {
            (true, Some(limit)) => Some(timing::write_limit(problem, limit)),
            _ => None,
        };
        let failed = match written {
            Some(Ok(done)) => {
                report.written = Some(done);
                None
            }
            Some(Err(error)) => Some(error),
            None => None,
        };
        dispatch.finished(Finished::timed(&report));
        if let Some(error) = failed {
            return Err(error.into());
        }
    }
    Ok(dispatch.finish(Ok(()), Summary::default())?)
}
