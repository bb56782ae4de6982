//! Stress testing: random inputs from a problem's generator, the program under test against a
//! reference, compared with the problem's checker. For a built-in problem (here): a
//! [`schedule`] of seeds and scales, the [`Tester`] judging one input against the brute force,
//! the first failure shrunk with the problem's shrinker ([`shrinking`]) and shown or saved as a
//! fixture ([`report`]); for a Kattis package, [`package`]. Which problem, the flags, the
//! progress bar and the exit code are `commands::stress`'s.

pub mod package;
pub mod report;
pub mod schedule;
pub mod shrinking;

use std::sync::Arc;

use anyhow::Result;
use grundy_problems::{Constraints, InputError, Problem};

use crate::config::Settings;
use crate::discovery::Case;
use crate::files::beneath::TreePath;
use crate::judging::{self, run_case, CaseResult, Judge, Ran};
use crate::new_case::{reference_run, Reference, ReferenceFailed};
use crate::reporting::stressed;
use crate::running::pool::Jobs;
use crate::running::{Input, SolveWatch, Subject};
use schedule::Schedule;

/// One pool job per case: its input from the schedule, through the [`Tester`].
pub struct StressJobs {
    pub schedule: Schedule,
    pub tester: Arc<Tester>,
}

/// One case tried.
pub struct Tried {
    pub case: schedule::CaseInput,
    pub input: Vec<u8>,
    pub outcome: Outcome,
}

impl Jobs for StressJobs {
    type Output = Tried;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Tried> {
        let case = self.schedule.case(index as u64 + 1);
        let input = (self.tester.problem.generate)(case.seed, case.scale);
        let outcome = self.tester.try_input(&input)?;
        Ok(Tried {
            case,
            input,
            outcome,
        })
    }

    fn failed(&self, tried: &Tried) -> bool {
        !matches!(tried.outcome, Outcome::Agree)
    }
}

/// Runs inputs through the program under test and the brute force, and compares them.
pub struct Tester {
    pub problem: &'static Problem,
    pub subject: Subject,
    pub settings: Settings,
}

/// What one case showed, for a built-in problem (a [`Trial`] shows a failure, a [`Broken`] says
/// why a case tells nothing) or a package (with [`package::trial`]'s): the program under test
/// agreed with the reference, or did not, or the case tells nothing of it.
pub enum Outcome<F = Trial, B = Broken> {
    Agree,
    Disagree(Box<F>),
    /// Not the program's fault: the generator made an input the validator rejects, or the
    /// reference failed.
    Broken(B),
}

/// What shows a failing case: its judged result, whatever else it keeps.
pub trait Failure {
    fn result(&self) -> &CaseResult;
}

impl Failure for Trial {
    fn result(&self) -> &CaseResult {
        &self.result
    }
}

impl<F: Failure, B> Outcome<F, B> {
    /// Case `number` (its input from `seed`) as the run's report shows it, with its verdict
    /// where it did not agree; `None` for a broken case, which the run ends with instead.
    pub fn unit(&self, number: u64, seed: u64) -> Option<stressed::Tried> {
        let verdict = match self {
            Outcome::Agree => None,
            Outcome::Disagree(failure) => Some(failure.result().verdict),
            Outcome::Broken(_) => return None,
        };
        Some(stressed::Tried {
            number,
            seed,
            verdict,
        })
    }
}

/// Why an input tells nothing of the program under test.
#[derive(Debug, thiserror::Error)]
pub enum Broken {
    #[error("the generator of {problem} made an input its validator rejects: {error}")]
    Invalid {
        problem: &'static str,
        error: InputError,
    },
    #[error(transparent)]
    Reference(#[from] ReferenceFailed),
}

/// A failing run, with what is needed to show it.
pub struct Trial {
    pub result: CaseResult,
    pub expected: Vec<u8>,
    pub output: Vec<u8>,
}

impl Tester {
    /// Whether a candidate still fails, for shrinking: its trial when the program under test
    /// disagrees on it (an input that tells nothing is no failure).
    pub fn still_fails(self: &Arc<Self>) -> shrinking::StillFails {
        let tester = Arc::clone(self);
        Arc::new(move |candidate: &[u8]| match tester.try_input(candidate)? {
            Outcome::Disagree(trial) => Ok(Some(*trial)),
            Outcome::Agree | Outcome::Broken(_) => Ok(None),
        })
    }

    pub fn try_input(&self, input: &[u8]) -> Result<Outcome> {
        let problem = self.problem;
        // Stress inputs stay within the original limits, whatever the scale: the program under
        // test may be one written for the original judge (the generators cap their sizes there).
        if let Err(error) = (problem.validate)(&mut &input[..], Constraints::Original) {
            return Ok(Outcome::Broken(Broken::Invalid {
                problem: problem.id,
                error,
            }));
        }
        // The reference gets all the time it needs, as for `gen` and `add --brute`.
        let expected = match reference_run(problem, input, Reference::BruteForce) {
            Ok(output) => output,
            Err(failed) => return Ok(Outcome::Broken(failed.into())),
        };
        let case = Case::fixture(
            format!("{}/stress", problem.id),
            problem.id.to_string(),
            TreePath::in_memory("<stdin>"),
            None,
        );
        // An interactive problem's program plays the judge, with the brute force's answer file.
        let trial = judging::Trial {
            case: &case,
            built_in: Some(problem),
            input: Input::Bytes(input),
            expected: Some(&expected),
        };
        let judge_by = Judge {
            checker: &self.settings.checker,
            interactor: self.settings.interactor.as_ref(),
        };
        let Ran {
            result,
            last,
            exchange,
        } = run_case(&self.subject, trial, judge_by, &self.settings, None)?;
        if result.verdict.passed() {
            return Ok(Outcome::Agree);
        }
        let output = match (last, exchange) {
            (_, Some(exchange)) => exchange.into_bytes(),
            (Some(run), None) => run.output,
            (None, None) => Vec::new(),
        };
        Ok(Outcome::Disagree(Box::new(Trial {
            result,
            expected,
            output,
        })))
    }
}

/// A seed that differs between runs, printed so the run can be repeated.
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // Small numbers are easier to retype; a million of them is plenty of runs.
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}

#[cfg(test)]
#[path = "stress_tests.rs"]
mod tests;
