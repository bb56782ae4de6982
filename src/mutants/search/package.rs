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
//! `--add` adds a found input that a command of generators.yaml made to the plan's `secret`
//! group as `mutant-<n>` (an edit of the file's text, [`generators::add_secret_case`]) and
//! generates it through `generation`; any other, or where the file's shape cannot be edited
//! safely, it writes as `data/secret/mutant-<n>` through stress's `--save` ([`save`]).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{anyhow, Result};

use super::{first_failing, Broken, Searched};
use crate::files::beneath::Tree;
use crate::files::folder::Existing;
use crate::generation::limits as generator_limits;
use crate::generation::{generate_package, Options};
use crate::model::Problem;
use crate::package::generators;
use crate::package::generators::AddError;
use crate::package::programs::Program;
use crate::package::submissions::Submission;
use crate::package::yaml::read_text;
use crate::package::Package;
use crate::reporting::mutated::{Kept, NotSearched};
use crate::running::pool::Stop;
use crate::running::Subject;
use crate::stages::Pool;
use crate::stress::package::report::{already_there, save, Saved, SAVED_GROUP};
use crate::stress::package::trial::{Found, Generator, Outcome, StressJobs, Stresser};
use crate::stress::package::{built, generator_commands, open, seeded_commands, sizes};

/// Where a search's inputs come from: the package read with its generators.yaml, and the
/// generator commands, not built yet.
pub struct Source {
    root: std::path::PathBuf,
    /// Whether the inputs come from the commands of a generators.yaml, which `--add` adds to.
    from_plan: bool,
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
        let root = crate::model::absolute(root);
        let (tree, package, plan) = open(&root)?;
        if package.metadata.problem_type.interactive {
            return Ok(Err(NotSearched::Interactive));
        }
        if given.is_none() && seeded_commands(&plan).is_empty() {
            return Ok(Err(NotSearched::NoGenerator));
        }
        let commands = generator_commands(given, &tree, &plan)?;
        Ok(Ok(Source {
            from_plan: given.is_none(),
            root,
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
            root: self.root,
            from_plan: self.from_plan,
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
    root: std::path::PathBuf,
    from_plan: bool,
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
    /// Writes `found`, which `command` makes, as the case `secret/mutant-<number>`: its name,
    /// or why it was not. Where `command` is one of generators.yaml's, the case is added there
    /// ([`generators::add_secret_case`]) and made as `grundy generate` makes it; where the file
    /// has no shape that can be edited safely, and for `--generator`'s commands, its files are
    /// written as `stress --save` writes them.
    pub(super) fn add(
        &self,
        number: usize,
        command: &str,
        found: &Found,
        pool: &Pool,
    ) -> Result<Result<String, Kept>, Stop> {
        let name = format!("mutant-{number}");
        let case = format!("{SAVED_GROUP}/{name}");
        if self.from_plan {
            if let Some(kept) = already_there(&self.tree, &name)? {
                return Ok(Err(kept));
            }
            let file = self
                .tree
                .join(format!("{}/{}", generators::FOLDER, generators::FILE));
            let text = read_text(&file, generators::GENERATORS_YAML_BYTES)?;
            match generators::add_secret_case(&text, &name, command) {
                Ok(edited) => {
                    file.write(edited.as_bytes(), Existing::Replace)?;
                    return self.generate(&case, pool).map(Ok);
                }
                Err(AddError::Taken(..)) => {
                    return Ok(Err(Kept(format!("{}: {case}", file.relative().display()))))
                }
                Err(_) => {}
            }
        }
        Ok(match save(&self.tree, &name, found)? {
            Saved::Written { .. } => Ok(case),
            Saved::Kept(kept) => Err(kept),
        })
    }

    /// Generates the package's data as `grundy generate` does (the case just added is the one
    /// not made yet); `case` back, or why it could not be made.
    fn generate(&self, case: &str, pool: &Pool) -> Result<String, Stop> {
        let generated = generate_package(&self.root, &Options::default(), pool, true)?;
        match generated.failed.iter().find(|(failed, _)| failed == case) {
            Some((_, why)) => Err(Stop::Failed(anyhow!(
                "{case} was added to generators.yaml but could not be made: {why}"
            ))),
            None => Ok(case.to_string()),
        }
    }
}
