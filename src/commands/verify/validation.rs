//! Checking the data before any submission runs: every input (judged and `invalid_input`)
//! through every input validator, every judged case's answer through every answer validator
//! (BAPCtools' `answer_validators/`), and the `valid_output`/`invalid_output` cases through the
//! output validator.
//!
//! Input validators speak the Kattis protocol: the input on stdin, the case's arguments on the
//! command line, exit 42 for a valid input and 43 for an invalid one; anything else means the
//! validator is broken. A judged input must be accepted by every validator; an `invalid_input`
//! must be rejected by at least one. A built-in problem's validator runs in-process, and so does
//! a checktestdata script (accepting or rejecting as a program would by 42 or 43; one that fails
//! while running is broken, one that does not parse is one that does not compile). Answer
//! validators speak BAPCtools' protocol: the answer on stdin, the case's input file as the
//! argument (a copy in its working folder), the same exit codes.
//!
//! A validator that does not compile makes the package invalid; one that could not be built
//! here (no compiler, an unsupported language, the host failing) leaves the data unchecked, and
//! the package is then never called valid.

use std::io::BufReader;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use grundy_sandbox::{BoxFile, Program as Command};

use super::build::{Build, Builds};
use super::checkers::{checker_for, output_validator, Unjudgeable};
use super::model::{InputValidator, Problem, TestCase};
use crate::checking::{Judgement, Submitted};
use crate::checktestdata::{self, Script};
use crate::config::Settings;
use crate::files::beneath::TreePath;
use crate::package::programs::Program;
use crate::running::pool::Jobs;
use crate::running::{run_external_with, Failure, Input, SolveWatch};

/// An input validator's limits when the package sets none.
const VALIDATION_TIME: Duration = Duration::from_secs(60);
const VALIDATION_MEMORY_MIB: u64 = 2048;
/// Validation failures listed per problem; the rest are counted.
const ERRORS_SHOWN: usize = 10;
/// What an answer validator's copy of the case's input is called in its working folder.
const INPUT: &str = "input";

/// What one validator said about one input, or one output check.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    Valid,
    Invalid(String),
    /// The validator failed to do its job (wrong exit code, crash, timeout).
    Broken(String),
    NotRun(NotRun),
}

/// Why a validator did not run.
#[derive(Clone, Debug, PartialEq)]
pub enum NotRun {
    /// It does not compile: the compiler's message. The package is invalid.
    DoesNotCompile(String),
    /// It could not be built here (no compiler, an unsupported language, a judge error of the
    /// host), or the output validator could not: why. The data is unchecked.
    Skipped(String),
}

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

/// What validation found for one problem: each a line for the report.
#[derive(Debug, Default)]
pub struct Findings {
    /// Problems that make the package invalid.
    pub errors: Vec<String>,
    /// What could not be checked (a validator that did not run, and why): the package is then
    /// not known to be valid.
    pub unchecked: Vec<String>,
    /// One line of what was checked.
    pub summary: String,
    /// How many checks failed (`errors` lists the first of them).
    pub failures: usize,
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
                        .filter(|(_, case)| case.answer.is_some())
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
                        Said::Invalid(message) => found.errors.push(format!(
                            "input {} is rejected by the input validator {validator}: {message}",
                            case.id
                        )),
                        Said::Broken(message) => found.errors.push(format!(
                            "the input validator {validator} is broken on {}: {message}",
                            case.id
                        )),
                        Said::NotRun(why) => note_not_run(found, &mut not_run[p], &validator, why),
                    }
                }
                Task::Answer(p, v, c) => {
                    let problem = &self.problems[p];
                    let validator = &problem.answer_validators[v].name;
                    let case = &problem.validated_case(c).id;
                    let found = &mut all[p];
                    match said {
                        Said::Valid => {}
                        Said::Invalid(message) => found.errors.push(format!(
                            "answer {case} is rejected by the answer validator {validator}: \
                             {message}"
                        )),
                        Said::Broken(message) => found.errors.push(format!(
                            "the answer validator {validator} is broken on {case}: {message}"
                        )),
                        Said::NotRun(why) => note_not_run(found, &mut not_run[p], validator, why),
                    }
                }
                Task::Output(p, o) => {
                    let (case, must_accept) = &self.problems[p].output_cases[o];
                    let wanted = if *must_accept { "accept" } else { "reject" };
                    let error = match said {
                        Said::Valid if *must_accept => None,
                        Said::Invalid(_) if !must_accept => None,
                        Said::Valid => Some("it was accepted".to_string()),
                        Said::Invalid(message) => Some(format!("it was rejected: {message}")),
                        Said::Broken(message) => Some(message.clone()),
                        Said::NotRun(why) => {
                            let validator = output_validator(&self.problems[p])
                                .expect("only a package's own output validator does not run");
                            note_not_run(&mut all[p], &mut not_run[p], &validator.name, why);
                            None
                        }
                    };
                    if let Some(error) = error {
                        all[p].errors.push(format!(
                            "the output validator must {wanted} {}, but {error}",
                            case.id
                        ));
                    }
                }
            }
        }
        for (p, problem) in self.problems.iter().enumerate() {
            let ran_all = not_run[p].is_empty() && !problem.input_validators.is_empty();
            for (i, case) in problem.invalid_inputs.iter().enumerate() {
                if !rejected[p][i] && ran_all {
                    all[p].errors.push(format!(
                        "invalid input {} is accepted by every input validator",
                        case.id
                    ));
                }
            }
            let mut summary = format!(
                "{} inputs and {} invalid inputs through {} input validator(s)",
                problem.validated_count(),
                problem.invalid_inputs.len(),
                problem.input_validators.len()
            );
            if !problem.answer_validators.is_empty() {
                let answers = problem.validated().filter(|c| c.answer.is_some()).count();
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
            let errors = &mut all[p].errors;
            if errors.len() > ERRORS_SHOWN {
                let more = errors.len() - ERRORS_SHOWN;
                errors.truncate(ERRORS_SHOWN);
                errors.push(format!("… and {more} more validation failures like these"));
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
        NotRun::DoesNotCompile(message) => {
            let line = format!("does not compile: {}", first_line(message));
            found
                .errors
                .push(format!("the validator {validator} {line}"));
            line
        }
        NotRun::Skipped(why) => {
            let line = first_line(why);
            found.unchecked.push(format!("{validator}: {line}"));
            line
        }
    };
    not_run.push((validator.to_string(), line));
}

/// A compiler's message by its first line (`…` when there is more).
fn first_line(text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let more = if rest.trim().is_empty() { "" } else { " …" };
    format!("{first}{more}")
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
                let answer = case.answer.as_ref().expect("only answered cases are tasks");
                self.with_build(&problem.answer_validators[v], |command| {
                    // The input is a read-only copy in the validator's working folder, of the
                    // file opened through the package's root (never shown at its own path,
                    // which could lead anywhere by then).
                    let input = match Input::File(&case.input).as_box_file(INPUT) {
                        Ok(input) => input,
                        Err(error) => return Said::Broken(error.to_string()),
                    };
                    let mut validator = command.clone();
                    validator.argv.push(INPUT.into());
                    program_validation(&validator, answer, vec![input], problem)
                })
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

/// What every input validator of `problem` says of `case`'s input, in their order: the first
/// that does not call it valid (its name and what it said), or `None` when all do. `stress`
/// checks each generated input through this.
pub fn first_objection(
    problem: &Problem,
    builds: &Builds,
    case: &TestCase,
) -> Option<(String, Said)> {
    problem.input_validators.iter().find_map(|validator| {
        match input_validation(problem, builds, validator, case) {
            Said::Valid => None,
            said => Some((validator.name(), said)),
        }
    })
}

/// One input validator on one input.
fn input_validation(
    problem: &Problem,
    builds: &Builds,
    validator: &InputValidator,
    case: &TestCase,
) -> Said {
    match validator {
        InputValidator::BuiltIn(built_in) => built_in_validation(built_in, case),
        InputValidator::Checktestdata { script, .. } => checktestdata_validation(script, case),
        InputValidator::Program(program) => with_build(builds, program, |command| {
            let mut validator = command.clone();
            let args = case.input_validator_args.for_validator(&program.name);
            validator.argv.extend(args.iter().map(Into::into));
            program_validation(&validator, &case.input, vec![], problem)
        }),
    }
}

impl ValidationJobs {
    fn with_build(&self, program: &Program, validate: impl FnOnce(&Command) -> Said) -> Said {
        with_build(&self.builds, program, validate)
    }
}

/// `validate` with the built program, or why it cannot run.
fn with_build(builds: &Builds, program: &Program, validate: impl FnOnce(&Command) -> Said) -> Said {
    match builds.of(program) {
        Build::Ready { command, .. } => validate(command),
        Build::Failed(message) => Said::NotRun(NotRun::DoesNotCompile(message.clone())),
        Build::Skipped(why) => Said::NotRun(NotRun::Skipped(why.clone())),
        Build::HostError(error) => Said::NotRun(NotRun::Skipped(format!("judge error: {error}"))),
    }
}

/// A built-in problem's validator, in-process, on the input as a stream.
fn built_in_validation(problem: &grundy_problems::Problem, case: &TestCase) -> Said {
    let file = match case.input.open() {
        Ok(file) => file,
        Err(error) => return Said::Broken(error.to_string()),
    };
    match (problem.validate)(&mut BufReader::new(file), case.constraints) {
        Ok(()) => Said::Valid,
        Err(error) => Said::Invalid(error.to_string()),
    }
}

/// A checktestdata script, in-process, on the whole input.
fn checktestdata_validation(script: &Result<Script, String>, case: &TestCase) -> Said {
    let script = match script {
        Ok(script) => script,
        Err(why) => return Said::NotRun(NotRun::DoesNotCompile(why.clone())),
    };
    let input = match case.input.read() {
        Ok(input) => input,
        Err(error) => return Said::Broken(error.to_string()),
    };
    match script.check(&input) {
        Ok(()) => Said::Valid,
        Err(checktestdata::Failure::Rejected(rejection)) => Said::Invalid(rejection.to_string()),
        Err(checktestdata::Failure::Script(error)) => Said::Broken(error.to_string()),
    }
}

/// A validator program (its arguments given) on the file `checked`, on its stdin, by the Kattis
/// protocol, with `files` in its working folder.
fn program_validation(
    validator: &Command,
    checked: &TreePath,
    files: Vec<BoxFile>,
    problem: &Problem,
) -> Said {
    let limits = &problem.limits;
    let settings = Settings {
        time_limit: limits
            .validation_time_s
            .map_or(VALIDATION_TIME, Duration::from_secs),
        memory_limit_mb: limits
            .validation_memory_mib
            .unwrap_or(VALIDATION_MEMORY_MIB),
        output_limit_mb: limits.validation_output_mib.unwrap_or(8),
        ..Settings::default()
    };
    let run = match run_external_with(validator, Input::File(checked), files, &settings) {
        Ok(run) => run,
        Err(error) => return Said::Broken(format!("cannot be started: {error}")),
    };
    let said = message(&streams(&run));
    match run.failure {
        Some(Failure::ExitCode(42)) => Said::Valid,
        Some(Failure::ExitCode(43)) => Said::Invalid(said),
        None => Said::Broken(format!(
            "exited with status 0; the protocol wants 42 (valid) or 43 (invalid){}",
            with(&said)
        )),
        Some(failure) => Said::Broken(format!("{failure}{}", with(&said))),
    }
}

/// One output case through the output validator: accepted is `Valid`, rejected `Invalid`.
fn output_validation(problem: &Problem, builds: &Builds, case: &TestCase) -> Said {
    let checker = match checker_for(problem, builds, case) {
        Ok(checker) => checker,
        Err(Unjudgeable::Package(why)) => return Said::Broken(why),
        Err(Unjudgeable::NotRun { why, .. }) => return Said::NotRun(NotRun::Skipped(why)),
    };
    let read = |path: &Option<TreePath>| {
        path.as_ref()
            .map(TreePath::read)
            .transpose()
            .map(Option::unwrap_or_default)
    };
    let (answer, output) = match (read(&case.answer), read(&case.output)) {
        (Ok(answer), Ok(output)) => (answer, output),
        (Err(error), _) | (_, Err(error)) => {
            return Said::Broken(format!("cannot read the files of {}: {error}", case.id))
        }
    };
    let submitted = Submitted {
        input: Input::File(&case.input),
        expected: &answer,
        output: &output,
        feedback: None,
    };
    let judge_limits = Settings {
        output_limit_mb: problem.output_mib,
        ..Settings::default()
    }
    .judge_limits();
    match checker.judge(&submitted, &judge_limits) {
        Judgement::Accepted | Judgement::Scored(_) => Said::Valid,
        Judgement::WrongAnswer(message) | Judgement::PresentationError(message) => {
            Said::Invalid(message)
        }
        Judgement::JudgeError(message) => Said::Broken(message),
    }
}

/// A validator's message on one line, cut short.
fn message(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

fn with(said: &str) -> String {
    if said.is_empty() {
        String::new()
    } else {
        format!("; it said: {said}")
    }
}

/// What a run wrote, stderr first.
fn streams(run: &crate::running::Run) -> String {
    format!(
        "{} {}",
        String::from_utf8_lossy(&run.stderr),
        String::from_utf8_lossy(&run.output)
    )
}
