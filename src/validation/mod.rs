//! Checking a problem's data before any submission runs: which checks a problem needs (every
//! input, judged, unjudged and `invalid_input`, through every input validator; every answer
//! through every answer validator, BAPCtools' `answer_validators/`; the
//! `valid_output`/`invalid_output` cases through the output validator), run on the pool
//! ([`validate`]: `verify`'s stage; [`validate_packages`]: `grundy validate`'s), and
//! what their answers make of the package. How one validator is run on one case is
//! [`validators`]'; which checker or interactor judges a case's output (the output validator,
//! built, or the default one) is [`checkers`]'.
//!
//! A validated input must be accepted by every validator; an `invalid_input` must be rejected by
//! at least one. A validator that does not compile makes the package invalid; one that could not
//! be built here (no compiler, an unsupported language, the host failing) leaves the data
//! unchecked, and the package is then never called valid.

pub mod checkers;
mod validators;

use std::collections::BTreeSet;
use std::sync::Arc;

use anyhow::Result;

use crate::build::{BuildJobs, Builds};
use crate::model::{Problem, TestCase};
use crate::reporting::findings::{telling_line, Fault, OutputBut, Unchecked};
use crate::running::pool::{Jobs, Stop};
use crate::running::SolveWatch;
use crate::stages::Pool;
use checkers::output_validator;
use validators::{answer_validation, input_validation, output_validation};
pub use validators::{first_objection, NotRun, Said};

/// Validation failures listed per problem; the rest are counted.
const ERRORS_SHOWN: usize = 10;

/// One check to make.
#[derive(Clone, Copy)]
enum Task {
    /// Problem, validator, input (judged cases first, then the invalid inputs).
    Input(usize, usize, usize),
    /// Problem, answer validator, judged case (one with an answer).
    Answer(usize, usize, usize),
    /// Problem, output case.
    Output(usize, usize),
}

pub struct ValidationJobs {
    problems: Arc<Vec<Problem>>,
    builds: Arc<Builds>,
    tasks: Vec<Task>,
}

/// What validation found for one problem.
#[derive(Debug, Default)]
pub struct Findings {
    /// Problems that make the package invalid.
    pub errors: Vec<Fault>,
    /// What could not be checked (a validator that did not run, and why): the package is then
    /// not known to be valid.
    pub unchecked: Vec<Unchecked>,
    /// One line of what was checked.
    pub summary: String,
    /// How many checks failed (`errors` lists the first of them).
    pub failures: usize,
    /// Every input (by its id) that a check of it or of its answer failed on, listed or not.
    pub failed_inputs: BTreeSet<String>,
    /// Whether a validator did not run (it does not compile, or could not be built here): the
    /// inputs it was to check are not known to be valid.
    pub not_run: bool,
}

impl ValidationJobs {
    pub fn new(problems: Arc<Vec<Problem>>, builds: Arc<Builds>) -> ValidationJobs {
        let mut tasks = vec![];
        for (p, problem) in problems.iter().enumerate() {
            let inputs = problem.validated_count() + problem.invalid_inputs.len();
            for v in 0..problem.input_validators.len() {
                tasks.extend((0..inputs).map(|i| Task::Input(p, v, i)));
            }
            for v in 0..problem.answer_validators.len() {
                let answered = problem.validated().enumerate();
                tasks.extend(
                    answered
                        .filter(|(_, case)| case.case.expected.is_some())
                        .map(|(c, _)| Task::Answer(p, v, c)),
                );
            }
            tasks.extend((0..problem.output_cases.len()).map(|o| Task::Output(p, o)));
        }
        ValidationJobs {
            problems,
            builds,
            tasks,
        }
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// The findings of each problem, from the pool's outputs in job order.
    pub fn findings(&self, outputs: &[Option<Said>]) -> Vec<Findings> {
        let mut all: Vec<Findings> = self.problems.iter().map(|_| Findings::default()).collect();
        // For each problem and invalid input: whether some validator rejected it.
        let mut rejected: Vec<Vec<bool>> = self
            .problems
            .iter()
            .map(|p| vec![false; p.invalid_inputs.len()])
            .collect();
        // For each problem, the validators that did not run (one line each, for the summary).
        let mut not_run: Vec<Vec<(String, String)>> =
            self.problems.iter().map(|_| vec![]).collect();
        for (task, said) in self.tasks.iter().zip(outputs) {
            let Some(said) = said else { continue };
            match *task {
                Task::Input(p, v, i) => {
                    let problem = &self.problems[p];
                    let validator = problem.input_validators[v].name();
                    let (case, invalid) = input_of(problem, i);
                    let found = &mut all[p];
                    match said {
                        Said::Valid => {}
                        Said::Invalid(_) if invalid => {
                            rejected[p][i - problem.validated_count()] = true
                        }
                        Said::Invalid(message) => {
                            found.failed_inputs.insert(case.id().to_string());
                            found.errors.push(Fault::InputRejected {
                                case: case.id().to_string(),
                                validator,
                                said: message.clone(),
                            })
                        }
                        Said::Broken(message) => {
                            found.failed_inputs.insert(case.id().to_string());
                            found.errors.push(Fault::InputValidatorBroken {
                                case: case.id().to_string(),
                                validator,
                                said: message.clone(),
                            })
                        }
                        Said::NotRun(why) => note_not_run(found, &mut not_run[p], &validator, why),
                    }
                }
                Task::Answer(p, v, c) => {
                    let problem = &self.problems[p];
                    let validator = &problem.answer_validators[v].name;
                    let case = &problem.validated_case(c).id().to_string();
                    let found = &mut all[p];
                    match said {
                        Said::Valid => {}
                        Said::Invalid(message) => {
                            found.failed_inputs.insert(case.clone());
                            found.errors.push(Fault::AnswerRejected {
                                case: case.clone(),
                                validator: validator.clone(),
                                said: message.clone(),
                            })
                        }
                        Said::Broken(message) => {
                            found.failed_inputs.insert(case.clone());
                            found.errors.push(Fault::AnswerValidatorBroken {
                                case: case.clone(),
                                validator: validator.clone(),
                                said: message.clone(),
                            })
                        }
                        Said::NotRun(why) => note_not_run(found, &mut not_run[p], validator, why),
                    }
                }
                Task::Output(p, o) => {
                    let (case, must_accept) = &self.problems[p].output_cases[o];
                    let but = match said {
                        Said::Valid if *must_accept => None,
                        Said::Invalid(_) if !must_accept => None,
                        Said::Valid => Some(OutputBut::Accepted),
                        Said::Invalid(message) => Some(OutputBut::Rejected(message.clone())),
                        Said::Broken(message) => Some(OutputBut::Broken(message.clone())),
                        Said::NotRun(why) => {
                            let validator = output_validator(&self.problems[p])
                                .expect("only a package's own output validator does not run");
                            note_not_run(&mut all[p], &mut not_run[p], &validator.name, why);
                            None
                        }
                    };
                    if let Some(but) = but {
                        all[p].errors.push(Fault::OutputCase {
                            case: case.id().to_string(),
                            must_accept: *must_accept,
                            but,
                        });
                    }
                }
            }
        }
        for (p, problem) in self.problems.iter().enumerate() {
            let ran_all = not_run[p].is_empty() && !problem.input_validators.is_empty();
            for (i, case) in problem.invalid_inputs.iter().enumerate() {
                if !rejected[p][i] && ran_all {
                    all[p].failed_inputs.insert(case.id().to_string());
                    all[p]
                        .errors
                        .push(Fault::InvalidAccepted(case.id().to_string()));
                }
            }
            let mut summary = format!(
                "{} inputs and {} invalid inputs through {} input validator(s)",
                problem.validated_count(),
                problem.invalid_inputs.len(),
                problem.input_validators.len()
            );
            if !problem.answer_validators.is_empty() {
                let answers = problem
                    .validated()
                    .filter(|c| c.case.expected.is_some())
                    .count();
                summary += &format!(
                    "; {answers} answers through {} answer validator(s)",
                    problem.answer_validators.len()
                );
            }
            if !problem.output_cases.is_empty() {
                summary += &format!(
                    "; {} outputs through the output validator",
                    problem.output_cases.len()
                );
            }
            for (validator, why) in &not_run[p] {
                summary += &format!("; not run: {validator}: {why}");
            }
            all[p].summary = summary;
            all[p].failures = all[p].errors.len();
            all[p].not_run = !not_run[p].is_empty();
            let errors = &mut all[p].errors;
            if errors.len() > ERRORS_SHOWN {
                let more = errors.len() - ERRORS_SHOWN;
                errors.truncate(ERRORS_SHOWN);
                errors.push(Fault::More(more));
            }
        }
        all
    }
}

/// Notes that `validator` did not run, once per validator: one that does not compile makes
/// the package invalid, one that could not be built leaves its data unchecked.
fn note_not_run(
    found: &mut Findings,
    not_run: &mut Vec<(String, String)>,
    validator: &str,
    why: &NotRun,
) {
    if not_run.iter().any(|(name, _)| name == validator) {
        return;
    }
    let line = match why {
        NotRun::DoesNotCompile(why) => {
            let line = format!("does not compile: {}", telling_line(&why.to_string()));
            found.errors.push(Fault::DoesNotCompile {
                validator: validator.to_string(),
                why: why.clone(),
            });
            line
        }
        NotRun::Skipped(why) => {
            found.unchecked.push(Unchecked::NotRun {
                validator: validator.to_string(),
                why: why.clone(),
            });
            telling_line(&why.to_string())
        }
    };
    not_run.push((validator.to_string(), line));
}

/// Input `i` of a problem (its validated cases, then its invalid inputs), and whether it is
/// invalid.
fn input_of(problem: &Problem, i: usize) -> (&TestCase, bool) {
    match i.checked_sub(problem.validated_count()) {
        None => (problem.validated_case(i), false),
        Some(invalid) => (&problem.invalid_inputs[invalid], true),
    }
}

impl Jobs for ValidationJobs {
    type Output = Said;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Said> {
        Ok(match self.tasks[index] {
            Task::Input(p, v, i) => {
                let problem = &self.problems[p];
                let (case, _) = input_of(problem, i);
                input_validation(problem, &self.builds, &problem.input_validators[v], case)
            }
            Task::Answer(p, v, c) => {
                let problem = &self.problems[p];
                let case = problem.validated_case(c);
                answer_validation(problem, &self.builds, &problem.answer_validators[v], case)
            }
            Task::Output(p, o) => {
                let problem = &self.problems[p];
                output_validation(problem, &self.builds, &problem.output_cases[o].0)
            }
        })
    }

    fn failed(&self, said: &Said) -> bool {
        !matches!(said, Said::Valid)
    }
}

/// The validation stage: every problem's data through its validators, on the pool.
pub fn validate(
    problems: &Arc<Vec<Problem>>,
    builds: &Arc<Builds>,
    pool: &Pool,
) -> Result<Vec<Findings>, Stop> {
    let validation = Arc::new(ValidationJobs::new(
        Arc::clone(problems),
        Arc::clone(builds),
    ));
    let said = pool.run(Arc::clone(&validation), validation.len(), "validating")?;
    Ok(validation.findings(&said))
}

/// `grundy validate` on packages: their validators built (their submissions are not) and run
/// on their data, as `verify` does it; what each package's validation found, in order.
pub fn validate_packages(mut problems: Vec<Problem>, pool: &Pool) -> Result<Vec<Findings>, Stop> {
    for problem in &mut problems {
        problem.submissions.clear();
    }
    let problems = Arc::new(problems);
    let build_jobs = Arc::new(BuildJobs::new(problems.iter()));
    let built = pool.run(Arc::clone(&build_jobs), build_jobs.len(), "building")?;
    let builds = Arc::new(build_jobs.collect(built));
    validate(&problems, &builds, pool)
}
