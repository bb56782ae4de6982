//! One validator on one case, whatever kind it is: a built-in problem's validator in-process,
//! a validator program contained by the Kattis protocol (the checked file on stdin, exit 42
//! valid, 43 invalid, anything else broken), a checktestdata script the same way (a contained
//! run of grundy's own `grundy checktestdata`, the script a file in its working folder), an
//! answer validator with the case's input as a file beside it, the output validator on a
//! `valid_output`/`invalid_output` case. Which checks a problem needs, and what their answers
//! make of it, is [`crate::validation`]'s.

use std::io::BufReader;
use std::sync::Arc;
use std::time::Duration;

use grundy_sandbox::{BoxFile, Program as Command};

use super::checkers::{checker_for, Unjudgeable};
use crate::build::{Build, Builds, NoBuild};
use crate::checktestdata::{INVALID, SCRIPT_FAULT, VALID};
use crate::files::beneath::TreePath;
use crate::judging::{judge_given, Trial, Verdict};
use crate::limits::Limits;
use crate::model::{InputValidator, Problem, TestCase, Unusable};
use crate::package::programs::Program;
pub use crate::reporting::findings::Uncompiled;
use crate::running::{own_executable, run_external_with, Failure, Input, Run};

/// An input validator's limits when the package sets none.
const VALIDATION_TIME: Duration = Duration::from_secs(60);
const VALIDATION_MEMORY_MIB: u64 = 2048;
/// What an answer validator's copy of the case's input is called in its working folder.
const INPUT: &str = "input";
/// What a checktestdata script is called in the working folder of the run that interprets it.
const SCRIPT: &str = "script.ctd";
/// The most of a validator program's words shown: the start of what it wrote, on one line.
const SHOWN_CHARS: usize = 300;
/// The most of the interpreter's own message shown (a rejection may quote huge bounds).
const SHOWN_SCRIPT_CHARS: usize = 2000;

/// What one validator said about one input, or one output check.
#[derive(Clone, Debug)]
pub enum Said {
    Valid,
    Invalid(String),
    /// The validator failed to do its job (wrong exit code, crash, timeout).
    Broken(String),
    NotRun(NotRun),
}

/// Why a validator did not run.
#[derive(Clone, Debug)]
pub enum NotRun {
    /// It does not compile (a checktestdata script: it cannot be read, or does not parse).
    /// The package is invalid.
    DoesNotCompile(Uncompiled),
    /// It could not be built here (no compiler, an unsupported language, a judge error of the
    /// host), or the output validator could not: why. The data is unchecked.
    Skipped(NoBuild),
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
pub fn input_validation(
    problem: &Problem,
    builds: &Builds,
    validator: &InputValidator,
    case: &TestCase,
) -> Said {
    match validator {
        InputValidator::BuiltIn(built_in) => built_in_validation(built_in, case),
        InputValidator::Checktestdata { script, .. } => {
            checktestdata_validation(script, case, problem)
        }
        InputValidator::Program(program) => with_build(builds, program, |command| {
            let mut validator = command.clone();
            let args = case.input_validator_args.for_validator(&program.name);
            validator.argv.extend(args.iter().map(Into::into));
            program_validation(&validator, &case.case.input, vec![], problem)
        }),
    }
}

/// One answer validator on the answer of `case` (which has one).
pub fn answer_validation(
    problem: &Problem,
    builds: &Builds,
    validator: &Program,
    case: &TestCase,
) -> Said {
    let answer = case
        .case
        .expected
        .as_ref()
        .expect("only answered cases are checked");
    with_build(builds, validator, |command| {
        // The input is a read-only copy in the validator's working folder, of the file opened
        // through the package's root (never shown at its own path, which could lead anywhere by
        // then).
        let input = match Input::File(&case.case.input).as_box_file(INPUT) {
            Ok(input) => input,
            Err(error) => return Said::Broken(error.to_string()),
        };
        let mut validator = command.clone();
        validator.argv.push(INPUT.into());
        program_validation(&validator, answer, vec![input], problem)
    })
}

/// `validate` with the built program, or why it cannot run.
fn with_build(builds: &Builds, program: &Program, validate: impl FnOnce(&Command) -> Said) -> Said {
    match builds.of(program) {
        Build::Ready { command, .. } => validate(command),
        Build::Failed(message) => Said::NotRun(NotRun::DoesNotCompile(Uncompiled::Compiler(
            message.clone(),
        ))),
        Build::Skipped(why) => Said::NotRun(NotRun::Skipped(NoBuild::Skipped(why.clone()))),
        Build::HostError(error) => Said::NotRun(NotRun::Skipped(NoBuild::Host(error.clone()))),
    }
}

/// A built-in problem's validator, in-process, on the input as a stream.
fn built_in_validation(problem: &grundy_problems::Problem, case: &TestCase) -> Said {
    let file = match case.case.input.open() {
        Ok(file) => file,
        Err(error) => return Said::Broken(error.to_string()),
    };
    match (problem.validate)(&mut BufReader::new(file), case.case.constraints) {
        Ok(()) => Said::Valid,
        Err(error) => Said::Invalid(error.to_string()),
    }
}

/// A checktestdata script on the input, as a validator program is run: `grundy checktestdata`
/// contained under the package's validation limits, the script's bytes (read once, through the
/// package's folder) a file in its working folder, the interpreter's values held within half
/// the memory limit so that its own bound, naming the script's line, comes first.
fn checktestdata_validation(
    script: &Result<Arc<Vec<u8>>, Arc<Unusable>>,
    case: &TestCase,
    problem: &Problem,
) -> Said {
    let text = match script {
        Ok(text) => text,
        Err(why) => {
            let why = Arc::clone(why);
            return Said::NotRun(NotRun::DoesNotCompile(Uncompiled::Script(why)));
        }
    };
    let grundy = match own_executable() {
        Ok(grundy) => grundy,
        Err(error) => return Said::Broken(format!("cannot be started: {error}")),
    };
    let limits = validation_limits(problem);
    let values = (limits.memory_mib / 2).max(1).to_string();
    let mut interpreter = Command::new([
        grundy.as_os_str(),
        "checktestdata".as_ref(),
        "--memory".as_ref(),
        values.as_ref(),
        SCRIPT.as_ref(),
    ]);
    // grundy's own image (its code, and the built-in problems' fixtures it carries) is mapped
    // whole: an address-space limit of the package's validation memory would count it, and a
    // debug build's alone comes near 64 MiB. Where a cgroup holds the memory limit, it counts
    // what the interpreter touches instead, and its values are bounded by `--memory` anyway.
    interpreter.reserves_address_space = true;
    let files = vec![BoxFile::bytes(SCRIPT, text.to_vec())];
    let run = match run_external_with(
        &interpreter,
        Input::File(&case.case.input),
        files,
        (&limits, &[]),
    ) {
        Ok(run) => run,
        Err(error) => return Said::Broken(format!("cannot be started: {error}")),
    };
    // The interpreter's words are its message alone: a rejection, or what is wrong with the
    // script.
    let said = cut(
        String::from_utf8_lossy(&run.stderr).trim(),
        SHOWN_SCRIPT_CHARS,
    );
    match run.failure {
        Some(Failure::ExitCode(code)) if code == i32::from(SCRIPT_FAULT) => Said::Broken(said),
        Some(failure @ (Failure::TimeLimit(_) | Failure::MemoryLimit { .. })) => {
            Said::Broken(format!(
                "the interpreter {failure} (the package's validation limits: {} s of CPU time, \
                 {} MiB)",
                limits.time.as_secs(),
                limits.memory_mib
            ))
        }
        _ => by_protocol(&run, said),
    }
}

/// A validator's limits: the package's validation limits, else the defaults.
fn validation_limits(problem: &Problem) -> Limits {
    let limits = &problem.limits;
    Limits::of_program(
        limits
            .validation_time_s
            .map_or(VALIDATION_TIME, Duration::from_secs),
        limits
            .validation_memory_mib
            .unwrap_or(VALIDATION_MEMORY_MIB),
        limits.validation_output_mib.unwrap_or(8),
    )
}

/// A validator program (its arguments given) on the file `checked`, on its stdin, by the Kattis
/// protocol, with `files` in its working folder.
fn program_validation(
    validator: &Command,
    checked: &TreePath,
    files: Vec<BoxFile>,
    problem: &Problem,
) -> Said {
    let limits = validation_limits(problem);
    let run = match run_external_with(validator, Input::File(checked), files, (&limits, &[])) {
        Ok(run) => run,
        Err(error) => return Said::Broken(format!("cannot be started: {error}")),
    };
    by_protocol(&run, message(&streams(&run)))
}

/// What a validator's run means by the Kattis protocol, `said` being its words.
fn by_protocol(run: &Run, said: String) -> Said {
    match &run.failure {
        Some(Failure::ExitCode(code)) if *code == i32::from(VALID) => Said::Valid,
        Some(Failure::ExitCode(code)) if *code == i32::from(INVALID) => Said::Invalid(said),
        None => Said::Broken(format!(
            "exited with status 0; the protocol wants 42 (valid) or 43 (invalid){}",
            with(&said)
        )),
        Some(failure) => Said::Broken(format!("{failure}{}", with(&said))),
    }
}

/// One output case through the output validator: accepted is `Valid`, rejected `Invalid`.
pub fn output_validation(problem: &Problem, builds: &Builds, case: &TestCase) -> Said {
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
    let (answer, output) = match (read(&case.case.expected), read(&case.output)) {
        (Ok(answer), Ok(output)) => (answer, output),
        (Err(error), _) | (_, Err(error)) => {
            return Said::Broken(format!("cannot read the files of {}: {error}", case.id()))
        }
    };
    // Judged as a submission's output on the case would be, by the same checker path.
    let trial = Trial {
        case: &case.case,
        built_in: None,
        input: Input::File(&case.case.input),
        expected: Some(&answer),
    };
    let judge_limits = Limits {
        output_mib: problem.output_mib,
        ..Limits::default()
    }
    .judge();
    let result = judge_given(trial, &checker, &judge_limits, output);
    let said = result.message.unwrap_or_default();
    match result.verdict {
        Verdict::AC => Said::Valid,
        Verdict::WA | Verdict::PE => Said::Invalid(said),
        _ => Said::Broken(said),
    }
}

/// A validator's message on one line, cut short.
fn message(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    cut(&line, SHOWN_CHARS)
}

/// `text` cut after `most` characters.
fn cut(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
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
fn streams(run: &Run) -> String {
    format!(
        "{} {}",
        String::from_utf8_lossy(&run.stderr),
        String::from_utf8_lossy(&run.output)
    )
}
