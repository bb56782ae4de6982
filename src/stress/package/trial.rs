//! One case of a package's stress run: the generator run contained on a seed, the input through
//! every input validator, the reference solution's answer, and the submission under test judged
//! by the package's output validator, as `verify` judges a secret case.

use std::sync::Arc;

use anyhow::{Context, Result};
use grundy_sandbox::Program as Command;

use super::super::schedule::Schedule;
use super::stress_case;
use crate::build::Builds;
use crate::checking::Checker;
use crate::config::Settings;
use crate::files::beneath::{Scope, Tree};
use crate::generation::make::{run_generator, run_solution, RunFailed};
use crate::judging::{self, run_case, CaseResult, Judge};
use crate::limits::Limits;
use crate::model::{Problem, TestCase};
use crate::package::generators;
use crate::running::pool::Jobs;
use crate::running::{Input, SolveWatch, Subject};
use crate::validation::{first_objection, NotRun, Said};

/// What the generated input is called in the folder the validators read it from.
const INPUT: &str = "stress.in";

/// A generator command of the run and its built program.
pub struct Generator {
    pub command: generators::Command,
    pub program: Command,
}

impl Generator {
    /// The command with `seed` and `args` in place, as a user would type it after the folder
    /// `generators/`: `gen.py 1234 10`.
    pub fn shown(&self, args: &[String], seed: u32) -> String {
        let command = self.with(args, seed);
        let mut words = vec![command.program.clone()];
        words.extend(command.arguments("{name}", 0));
        shell_words::join(words)
    }

    fn with(&self, args: &[String], seed: u32) -> generators::Command {
        generators::Command {
            args: args.to_vec(),
            seed,
            ..self.command.clone()
        }
    }
}

/// Everything a case is tried with.
pub struct Stresser {
    /// The package as `verify` sees it (its submissions left out).
    pub problem: Problem,
    /// The builds of its validators.
    pub builds: Builds,
    /// What generators and the reference solution run under (as for `generate`).
    pub generator_limits: Limits,
    /// The reference solution: its path from the package root and its command.
    pub reference: (String, Command),
    /// What the program under test runs under: the package's limits.
    pub settings: Settings,
    pub checker: Checker,
    /// The secret case whose settings (validator arguments, flags) a stress case has.
    pub template: TestCase,
}

/// A failing case and what shows it.
pub struct Found {
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    pub output: Vec<u8>,
    pub result: CaseResult,
}

/// What one case showed; broken when the generator, a validator or the reference solution
/// failed, not the submission.
pub type Outcome = crate::stress::Outcome<Found, Broken>;

impl crate::stress::Failure for Found {
    fn result(&self) -> &CaseResult {
        &self.result
    }
}

/// Why a case tells nothing of the submission under test.
#[derive(Debug)]
pub enum Broken {
    Generator(RunFailed),
    /// The generator (as shown) made no `.in`.
    NoInput(String),
    /// An input validator did not call the input valid: the generator (as shown), the
    /// validator, and what it said.
    Objection {
        made_by: String,
        validator: String,
        said: Said,
    },
    /// The reference solution wrote no answer to the input of the generator (as shown).
    Reference {
        why: RunFailed,
        made_by: String,
    },
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Broken::Generator(why) => why.fmt(f),
            Broken::NoInput(made_by) => write!(f, "generator `{made_by}` made no .in"),
            Broken::Objection {
                made_by,
                validator,
                said,
            } => match said {
                Said::Invalid(why) => write!(
                    f,
                    "generator `{made_by}` made an input the input validator {validator} \
                     rejects: {why}"
                ),
                Said::Broken(why) => write!(
                    f,
                    "the input validator {validator} failed on the input of `{made_by}`: {why}"
                ),
                Said::NotRun(NotRun::DoesNotCompile(message)) => write!(
                    f,
                    "the input validator {validator} does not compile:\n{message}"
                ),
                Said::NotRun(NotRun::Skipped(why)) => {
                    write!(f, "the input validator {validator} cannot run here: {why}")
                }
                Said::Valid => write!(f, "the input validator {validator} accepts the input"),
            },
            Broken::Reference { why, made_by } => {
                write!(f, "the reference {why} (input made by `{made_by}`)")
            }
        }
    }
}

impl Stresser {
    /// Runs `generator` with `args` on `seed`, and tries `subject` on its input.
    pub fn try_command(
        &self,
        subject: &Subject,
        generator: &Generator,
        args: &[String],
        seed: u32,
    ) -> Result<Outcome> {
        let command = generator.with(args, seed);
        let files = match run_generator(&generator.program, &command, 1, &self.generator_limits) {
            Ok(files) => files,
            Err(why) => return Ok(Outcome::Broken(Broken::Generator(why))),
        };
        let Some(input) = files.get("in") else {
            return Ok(Outcome::Broken(Broken::NoInput(
                generator.shown(args, seed),
            )));
        };
        self.try_input(subject, input, &generator.shown(args, seed))
    }

    fn try_input(&self, subject: &Subject, input: &[u8], made_by: &str) -> Result<Outcome> {
        let folder = tempfile::tempdir().context("cannot make a temporary folder")?;
        std::fs::write(folder.path().join(INPUT), input)
            .context("cannot write the generated input to a temporary folder")?;
        let tree = Tree::open(folder.path(), Scope::Program)?;
        let case = TestCase {
            case: stress_case(&self.problem, tree.join(INPUT)),
            output: None,
            ..self.template.clone()
        };
        if let Some((validator, said)) = first_objection(&self.problem, &self.builds, &case) {
            return Ok(Outcome::Broken(Broken::Objection {
                made_by: made_by.to_string(),
                validator,
                said,
            }));
        }
        let (path, reference) = &self.reference;
        let answer = match run_solution(path, reference, input.to_vec(), &self.generator_limits) {
            Ok(answer) => answer,
            Err(why) => {
                return Ok(Outcome::Broken(Broken::Reference {
                    why,
                    made_by: made_by.to_string(),
                }))
            }
        };
        let trial = judging::Trial {
            case: &case.case,
            built_in: None,
            input: Input::File(&case.case.input),
            expected: Some(&answer),
        };
        let judge_by = Judge {
            checker: &self.checker,
            interactor: None,
        };
        let ran = run_case(subject, trial, judge_by, &self.settings, None)
            .map_err(|error| anyhow::anyhow!("{error}"))?;
        let (result, output) = (ran.result, ran.last.map(|run| run.output));
        let output = output.unwrap_or_default();
        if result.verdict.passed() {
            return Ok(Outcome::Agree);
        }
        Ok(Outcome::Disagree(Box::new(Found {
            input: input.to_vec(),
            answer,
            output,
            result,
        })))
    }
}

/// The generator seed of case `number` (from 1) of a run on `seed`: the same in every run,
/// whatever the other cases and workers do, below 2³¹ as generators.yaml's seeds are.
pub fn case_seed(seed: u64, number: u64) -> u32 {
    let schedule = Schedule { seed, scale: None };
    (schedule.case(number).seed % (1 << 31)) as u32
}

/// One pool job per case: case `n` runs generator `(n - 1) mod count` on its own seed.
pub struct StressJobs {
    pub stresser: Arc<Stresser>,
    /// The program under test.
    pub subject: Subject,
    pub generators: Arc<Vec<Generator>>,
    pub seed: u64,
}

/// One case tried.
pub struct Tried {
    pub number: u64,
    pub generator: usize,
    pub seed: u32,
    pub outcome: Outcome,
}

impl Jobs for StressJobs {
    type Output = Tried;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Tried> {
        let number = index as u64 + 1;
        let which = index % self.generators.len();
        let generator = &self.generators[which];
        let seed = case_seed(self.seed, number);
        let outcome =
            self.stresser
                .try_command(&self.subject, generator, &generator.command.args, seed)?;
        Ok(Tried {
            number,
            generator: which,
            seed,
            outcome,
        })
    }

    fn failed(&self, tried: &Tried) -> bool {
        !matches!(tried.outcome, Outcome::Agree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_seeds_are_fixed_by_the_run_seed_and_fit_generators_yaml() {
        assert_eq!(case_seed(7, 3), case_seed(7, 3));
        assert_ne!(case_seed(7, 3), case_seed(7, 4));
        assert_ne!(case_seed(7, 3), case_seed(8, 3));
        assert!((1..100).all(|n| case_seed(42, n) < 1 << 31));
    }

    #[test]
    fn a_generator_is_shown_with_its_seed_and_sizes() {
        let generator = Generator {
            command: generators::Command {
                text: "gen.py {seed} 10".into(),
                program: "gen.py".into(),
                args: vec!["{seed}".into(), "10".into()],
                seed: 0,
                uses_seed: true,
            },
            program: Command::new(["python3", "gen.py"]),
        };
        assert_eq!(
            generator.shown(&["{seed}".into(), "3".into()], 99),
            "gen.py 99 3"
        );
    }
}
