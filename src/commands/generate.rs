//! `grundy generate [PKG]...`: the front-end of [`crate::generation`]: what the arguments name
//! ([`targets`]), containment when a package's programs run, Ctrl-C, the pool; each package's
//! data or built-in problem's fixtures generated, what was made printed, and the exit code (1
//! when a case could not be made or is invalid).

mod targets;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::cli::GenerateArgs;
use crate::commands::error::CommandError;
use crate::generation::{self, generate_package, report, Options};
use crate::package::generators::{self, FILE, FOLDER};
use crate::reporting::{Ended, Stages};
use crate::running::pool::PoolOptions;
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
    let jobs = crate::config::worker_count(args.jobs);
    let options = Options {
        force: args.force,
        clean: args.clean,
    };
    let pool = Pool::new(
        PoolOptions {
            jobs,
            fail_fast: false,
            cancel,
        },
        Stages::new(true, color),
    );
    let mut all_ok = true;
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
                generate_package(&package, &options, &pool, true)?
            }
            Target::BuiltIn(fixtures, problem) => {
                generation::fixtures::generate_fixtures(&fixtures, problem, &options, &pool)?
            }
        };
        report::print(&generated)?;
        all_ok &= generated.ok();
    }
    Ok(Ended::of(all_ok))
}
