//! `grundy report merge SHARD.json...`: the shards of a partitioned `verify` read back and
//! merged (`reporting::merge`), then replayed through the dispatcher and the reporters `verify`
//! reports with, so the human report, the JSON lines, the JUnit file and the exit status are
//! those of one run on one machine.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::CommandError;
use crate::cli::{MergeArgs, ReportCommand};
use crate::reporting::merge::{self, Merged};
use crate::reporting::{Dispatcher, Ended, Format, RunKind, Stages, Summary};

pub fn run(
    command: ReportCommand,
    color: bool,
    cancel: Arc<AtomicBool>,
) -> Result<Ended, CommandError> {
    match command {
        ReportCommand::Merge(args) => merge_shards(args, color, cancel),
    }
}

fn merge_shards(
    args: MergeArgs,
    color: bool,
    cancel: Arc<AtomicBool>,
) -> Result<Ended, CommandError> {
    // Every shard is read and checked before anything is reported.
    let shards = (args.shards.iter())
        .map(|file| merge::shard(file))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = merge::merge(shards)?;
    let verbosity = super::setup::verbosity(args.quiet, args.verbose);
    let reporter = super::setup::verify_reporter(&args.reports, &args.html, color, verbosity);
    // Nothing runs: no bars.
    let stages = Stages::new(false, color && args.reports.format == Format::Human);
    let mut dispatch = Dispatcher::new(reporter, stages, cancel, false);
    let Merged {
        unreadable,
        left_out,
        packages,
        wall_time,
    } = merged;
    dispatch.left_out(left_out);
    dispatch.ran_for(wall_time);
    dispatch.run_started(&RunKind::Verify {
        unreadable,
        explain: args.explain,
    });
    for package in &packages {
        dispatch.problem_started(&package.heading);
        for row in &package.rows {
            dispatch.submission_finished(row);
        }
        dispatch.problem_finished(&package.outcome);
    }
    Ok(dispatch.finish(Ok(()), Summary::default())?)
}
