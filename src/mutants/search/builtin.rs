//! A built-in problem's search for the case a survivor's data misses: inputs from its own
//! generator on stress's schedule of seeds and scales (from the run's seed), each tried as
//! `stress PROBLEM` tries one ([`Tester`]: within the original limits by the problem's
//! validator, the brute force's answer, the survivor judged by the problem's checker or
//! interactor); the first that tells them apart is shrunk with the problem's shrinker
//! ([`shrinking`]). `--add` writes it as the fixture `mutants/mutant-<n>` through [`NewCase`],
//! as `stress --save` writes its counterexample.

use std::sync::Arc;

use anyhow::Result;

use super::{first_failing, Broken, Searched};
use crate::config::{Config, Settings};
use crate::files::store::Writer;
use crate::new_case::NewCase;
use crate::reporting::mutated::Kept;
use crate::running::pool::Stop;
use crate::running::Subject;
use crate::stages::Pool;
use crate::stress::package::trial::Found;
use crate::stress::schedule::Schedule;
use crate::stress::{shrinking, Outcome, StressJobs, Tester, Tried};

/// The group of the fixtures `--add` writes.
const GROUP: &str = "mutants";

/// A built-in problem and the settings its fixtures are written with.
pub struct Source {
    problem: &'static grundy_problems::Problem,
    config: Config,
}

impl Source {
    pub fn new(problem: &'static grundy_problems::Problem, config: Config) -> Source {
        Source { problem, config }
    }

    pub(super) fn ready(self, settings: Settings, budget: usize, seed: u64) -> Search {
        Search {
            problem: self.problem,
            config: self.config,
            settings,
            budget,
            seed,
        }
    }
}

/// A built-in problem's search made ready.
pub struct Search {
    problem: &'static grundy_problems::Problem,
    config: Config,
    /// What a survivor runs under.
    settings: Settings,
    budget: usize,
    seed: u64,
}

impl Search {
    /// Searches for an input that tells the survivor `subject` from the brute force: the
    /// budget's inputs on the pool, stopped at the first that does, which is shrunk.
    pub(super) fn survivor(&self, subject: Subject, pool: &Pool) -> Result<Searched, Stop> {
        let tester = Arc::new(Tester {
            problem: self.problem,
            subject,
            settings: self.settings.clone(),
        });
        let schedule = Schedule {
            seed: self.seed,
            scale: None,
        };
        let jobs = Arc::new(StressJobs {
            schedule,
            tester: Arc::clone(&tester),
        });
        let first = first_failing(pool, jobs, self.budget)?;
        let (case, input, trial) = match first {
            Some(Tried {
                case,
                input,
                outcome: Outcome::Disagree(trial),
            }) => (case, input, *trial),
            Some(Tried {
                outcome: Outcome::Broken(why),
                ..
            }) => return Ok(Searched::Broken(Broken::Builtin(why))),
            None | Some(Tried { .. }) => return Ok(Searched::Equivalent),
        };
        let shrunk = shrinking::shrink(
            self.problem,
            (input, trial),
            shrinking::BUDGET,
            tester.still_fails(),
            pool.options(),
            |_, _| {},
        )?;
        let mut command = format!(
            "grundy gen {} CASE --seed {} --scale {}",
            self.problem.id, case.seed, case.scale
        );
        if shrunk.steps > 0 {
            command += &format!(", shrunk in {} steps", shrunk.steps);
        }
        let trial = shrunk.trial;
        Ok(Searched::Found {
            command,
            found: Box::new(Found {
                input: shrunk.input,
                answer: trial.expected,
                output: trial.output,
                result: trial.result,
            }),
        })
    }

    /// Writes `found` as the fixture `mutants/mutant-<number>` (its input and the brute
    /// force's output), under the fixtures root's lock and never over a file: its name, or
    /// why it was not written.
    pub(super) fn add(&self, number: usize, found: &Found) -> Result<Result<String, Kept>> {
        let name = format!("{GROUP}/mutant-{number}");
        let writer = Writer::open(&self.config.fixtures)?;
        let new_case = NewCase::named(&self.config, self.problem.id, &name)?;
        if new_case.taken()? {
            let shown = format!("{}/{name}.in", self.problem.id);
            return Ok(Err(Kept(shown)));
        }
        new_case.write_with(&writer, &found.input, &found.answer, None)?;
        Ok(Ok(name))
    }
}
