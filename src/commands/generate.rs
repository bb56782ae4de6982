//! `grundy generate [PKG]...`: the front-end of [`crate::generation`]: what the arguments name
//! ([`targets`]), containment when a package's programs run, the pool; each package's data or
//! built-in problem's fixtures generated and reported as a unit of the run, and how it ended
//! (failed when a case could not be made or is invalid; cancelled after Ctrl-C, with what was
//! made so far reported).

mod targets;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::cli::GenerateArgs;
use crate::commands::error::CommandError;
use crate::generation::{self, generate_package, Options};
use crate::package::generators::{self, FILE, FOLDER};
use crate::reporting::{Ended, Finished, RunKind, Summary};
use crate::stages::Pool;
use targets::Target;

pub fn run(
    args: GenerateArgs,
    color: bool,
    cancel: Arc<AtomicBool>,
) -> Result<Ended, CommandError> {
    let targets = targets::of(&args)?;
    if targets.iter().any(|t| matches!(t, Target::Package(_))) {
        // A package's generators and solutions are programs; a built-in problem's are ours.
        let isolate = args
            .isolate
            .as_deref()
            .map(crate::config::Isolate::from_flag);
        super::setup::containment_check(isolate.unwrap_or_default())?;
    }
    let (mut dispatch, stages) = super::setup::dispatcher(args.format, None, None, color, cancel);
    let jobs = crate::config::worker_count(args.jobs);
    let pool = Pool::new(dispatch.pool_options(jobs), stages);
    let options = Options {
        force: args.force,
        clean: args.clean,
    };
    dispatch.run_started(&RunKind::Generate);
    let mut ran: Result<(), crate::running::pool::Stop> = Ok(());
    for target in targets {
        let generated = match target {
            Target::Package(package) => {
                if !generators::file_of(&package).is_file() {
                    return Err(anyhow::anyhow!(
                        "`{}` has no {FOLDER}/{FILE}: nothing says how its data is made",
                        package.display()
                    )
                    .into());
                }
                generate_package(&package, &options, &pool, true)
            }
            Target::BuiltIn(fixtures, problem) => {
                generation::fixtures::generate_fixtures(&fixtures, problem, &options, &pool)
            }
        };
        match generated {
            Ok(generated) => dispatch.finished(Finished::generated(&generated.made())),
            Err(stop) => {
                ran = Err(stop);
                break;
            }
        }
    }
    // A plan that cannot be used, or the host, is the run's error (unless Ctrl-C came first).
    Ok(dispatch.finish(ran, Summary::default())?)
}
