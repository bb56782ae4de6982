//! `grundy timelimit [PKG]...`: the front-end of [`crate::verification::timing`] (the packages
//! named, else the one around the current folder; containment, Ctrl-C, the pool), its report
//! printed per package, `--write`, and the exit code: 0, 1 when a package's timing found
//! trouble, 2 when a package could not be read.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::cli::TimeLimitArgs;
use crate::commands::error::CommandError;
use crate::config::Isolate;
use crate::escape::visible_line;
use crate::reporting::{Ended, Stages};
use crate::running::pool::PoolOptions;
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
    let (problems, unreadable) = crate::model::packages(&targets);
    for error in &unreadable {
        eprintln!("error: {}", visible_line(&error.to_string()));
    }
    if problems.is_empty() {
        return Err(anyhow::anyhow!(
            "no package to time: give a package folder (holding problem.yaml) or a contest folder"
        )
        .into());
    }
    super::setup::containment_check(
        args.isolate
            .as_deref()
            .map(Isolate::from_flag)
            .unwrap_or_default(),
    )?;
    let jobs = crate::config::worker_count(args.jobs);
    let options = PoolOptions {
        jobs,
        fail_fast: false,
        cancel,
    };
    let pool = Pool::new(options, Stages::new(std::io::stderr().is_terminal(), color));
    let problems = Arc::new(problems);
    let timed = timing::time(&problems, &pool, args.runs)?;

    let mut failed = false;
    for (problem, (timing, over)) in problems.iter().zip(&timed) {
        let (text, fine) = timing::report(problem, timing, over);
        crate::reporting::print(&text)?;
        failed |= !fine;
        if let (true, Ok(limit)) = (args.write, &timing.limit) {
            crate::reporting::print(&format!("  {}\n", timing::write_limit(problem, *limit)?))?;
        }
    }
    Ok(if !unreadable.is_empty() {
        Ended::Incomplete
    } else {
        Ended::of(!failed)
    })
}
