//! A package's search for the case a survivor's data misses: inputs from its own generators
//! (each `generate:` command of its generators.yaml that takes `{seed}`, in turn) or from
//! `--generator`'s command, on seeds drawn from the run's seed, each tried as `stress PKG` tries
//! a case ([`Stresser`]: the input through every input validator, the accepted submission's
//! answer, the survivor judged on it by the package's output validator, every program
//! contained). The first input, in seed order, that tells a survivor from the accepted
//! submission is shrunk where its generator takes a size (stress's [`sizes`]); one that no input
//! of its budget tells apart is likely equivalent. The inputs are the same for every survivor,
//! whatever the number of workers.
//!
//! `--add` writes a found input as `data/secret/mutant-<n>` through stress's `--save`
//! ([`save`]).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Result;

use super::{first_failing, Broken, Searched};
use crate::files::beneath::Tree;
use crate::generation::limits as generator_limits;
use crate::model::Problem;
use crate::package::generators;
use crate::package::programs::Program;
use crate::package::submissions::Submission;
use crate::package::Package;
use crate::reporting::mutated::{Kept, NotSearched};
use crate::running::pool::Stop;
use crate::running::Subject;
use crate::stages::Pool;
use crate::stress::package::report::{save, Saved, SAVED_GROUP};
use crate::stress::package::trial::{Found, Generator, Outcome, StressJobs, Stresser};
use crate::stress::package::{built, generator_commands, open, seeded_commands, sizes};

/// Where a search's inputs come from: the package read with its generators.yaml, and the
/// generator commands, not built yet.
pub struct Source {
    tree: Tree,
    package: Package,
    commands: Vec<(generators::Command, Program)>,
}

impl Source {
    /// The package at `root` and the commands its inputs come from (`given`, else its
    /// generators.yaml's); why none when it has none. An error for a package or a command that
    /// cannot be used.
    pub fn open(root: &Path, given: Option<&str>) -> Result<Result<Source, NotSearched>> {
        // Absolute, as the programs built from it are run from their own folder.
        let (tree, package, plan) = open(&crate::model::absolute(root))?;
        if package.metadata.problem_type.interactive {
            return Ok(Err(NotSearched::Interactive));
        }
        if given.is_none() && seeded_commands(&plan).is_empty() {
            return Ok(Err(NotSearched::NoGenerator));
        }
        let commands = generator_commands(given, &tree, &plan)?;
        Ok(Ok(Source {
            tree,
            package,
            commands,
        }))
    }

    /// The search made ready: the package's validators, the generators and `accepted` (whose
    /// answers the survivors must give) built, each survivor's run made with `settings`.
    pub(super) fn ready(
        self,
        accepted: &Submission,
        pool: &Pool,
        settings: crate::config::Settings,
        budget: usize,
        seed: u64,
    ) -> Result<Search, Stop> {
        let limits = generator_limits(&self.package);
        let mut problem = Problem::from_package(self.package);
        problem.submissions.clear();
        let reference = (
            format!("submissions/{}", accepted.id),
            accepted.program.clone(),
        );
        let (stresser, generators) =
            built(problem, self.commands, reference, limits, settings, pool)?;
        Ok(Search {
            tree: self.tree,
            stresser: Arc::new(stresser),
            generators: Arc::new(generators),
            budget,
            seed,
        })
    }
}

/// A search made ready: what every survivor's inputs are tried with.
pub struct Search {
    /// The package, which `--add` writes into.
    tree: Tree,
    stresser: Arc<Stresser>,
    generators: Arc<Vec<Generator>>,
    /// Inputs tried per survivor.
    budget: usize,
    seed: u64,
}

impl Search {
    /// Searches for an input that tells the survivor `subject` from the accepted submission:
    /// the budget's inputs on the pool, stopped at the first that does, which is shrunk unless
    /// `cancel` (Ctrl-C) is set.
    pub(super) fn survivor(
        &self,
        subject: Subject,
        pool: &Pool,
        cancel: &AtomicBool,
    ) -> Result<Searched, Stop> {
        let jobs = Arc::new(StressJobs {
            stresser: Arc::clone(&self.stresser),
            subject,
            generators: Arc::clone(&self.generators),
            seed: self.seed,
        });
        let first = first_failing(pool, Arc::clone(&jobs), self.budget)?;
        let (which, seed, found) = match first.map(|t| (t.generator, t.seed, t.outcome)) {
            Some((which, seed, Outcome::Disagree(found))) => (which, seed, found),
            Some((_, _, Outcome::Broken(why))) => {
                return Ok(Searched::Broken(Broken::Package(why)))
            }
            None | Some((_, _, Outcome::Agree)) => return Ok(Searched::Equivalent),
        };
        let generator = &self.generators[which];
        let args = generator.command.args.clone();
        let shrunk = sizes::shrink(args, found, sizes::BUDGET, |candidate| {
            if cancel.load(Ordering::SeqCst) {
                return Err(Stop::Cancelled);
            }
            let tried = self
                .stresser
                .try_command(&jobs.subject, generator, candidate, seed)?;
            Ok(match tried {
                Outcome::Disagree(found) => Some(found),
                Outcome::Agree | Outcome::Broken(_) => None,
            })
        })?;
        Ok(Searched::Found {
            command: generator.shown(&shrunk.args, seed),
            found: shrunk.failure,
        })
    }
}

impl Search {
    /// Writes `found` as the case `secret/mutant-<number>`: its name, or why it was not.
    pub(super) fn add(&self, number: usize, found: &Found) -> Result<Result<String, Kept>> {
        let name = format!("mutant-{number}");
        Ok(match save(&self.tree, &name, found)? {
            Saved::Written { .. } => Ok(format!("{SAVED_GROUP}/{name}")),
            Saved::Kept(kept) => Err(kept),
        })
    }
}
