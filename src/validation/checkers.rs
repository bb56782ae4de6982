//! Which checker judges a case's output, and which interactor an interactive problem's
//! submissions talk to: a built-in problem's settings, a package's default output validator
//! with the case's flags, or its own output validator (built) in the Kattis protocol with the
//! case's `output_validator_args` appended; or why there is none ([`Unjudgeable`]), and whose
//! fault that is.

use crate::checking::default_validator::Options;
use crate::checking::{Checker, ExternalJudge, Interactor, Protocol};
use crate::package::programs::Program;
use crate::package::OutputValidator;

use crate::build::{Build, Builds, NoBuild};
use crate::model::{Judging, Problem, TestCase};
pub use crate::reporting::findings::Unjudgeable;

/// A package's own output validator (the first, when a legacy package has several).
pub fn output_validator(problem: &Problem) -> Option<&Program> {
    match &problem.judging {
        Judging::Package {
            validator: OutputValidator::Custom(programs),
            ..
        } => Some(first(programs)),
        _ => None,
    }
}

/// The checker for `case`, or why there is none.
pub fn checker_for(
    problem: &Problem,
    builds: &Builds,
    case: &TestCase,
) -> Result<Checker, Unjudgeable> {
    match &problem.judging {
        Judging::Settings(judge) => Ok(judge.checker.clone()),
        Judging::Package {
            validator: OutputValidator::Default,
            ..
        } => case
            .default_validator
            .clone()
            .unwrap_or_else(|| Ok(Options::default()))
            .map(Checker::KattisDefault)
            .map_err(|e| Unjudgeable::Package(e.to_string())),
        Judging::Package {
            validator: OutputValidator::Custom(programs),
            ..
        } => kattis_judge(first(programs), builds, &case.output_validator_args)
            .map(|judge| judge.seeing_submission(problem.validator_sees_submission))
            .map(Checker::External),
    }
}

/// The interactor of an interactive problem (`None` for the others), or why there is none.
pub fn interactor_for(
    problem: &Problem,
    builds: &Builds,
) -> Result<Option<Interactor>, Unjudgeable> {
    match &problem.judging {
        Judging::Settings(judge) => Ok(judge.interactor.clone()),
        Judging::Package {
            validator: OutputValidator::Custom(programs),
            interactive: true,
        } => kattis_judge(first(programs), builds, &[]).map(|j| Some(Interactor::External(j))),
        Judging::Package { .. } => Ok(None),
    }
}

/// The output validator used: a legacy package may have several; the first judges (the loader
/// warned about the others).
fn first(programs: &[Program]) -> &Program {
    &programs[0]
}

/// A built output validator as a Kattis judge, with `args` after the protocol's files.
fn kattis_judge(
    program: &Program,
    builds: &Builds,
    args: &[String],
) -> Result<ExternalJudge, Unjudgeable> {
    let name = &program.name;
    let command = match builds.of(program) {
        Build::Ready { command, .. } => command,
        Build::Failed(message) => {
            return Err(Unjudgeable::Package(format!(
                "the output validator {name} did not compile: {message}"
            )))
        }
        Build::Skipped(why) => {
            return Err(Unjudgeable::NotRun {
                validator: name.clone(),
                why: NoBuild::Skipped(why.clone()),
            })
        }
        Build::HostError(error) => {
            return Err(Unjudgeable::NotRun {
                validator: name.clone(),
                why: NoBuild::Host(error.clone()),
            })
        }
    };
    let words: Vec<String> = command
        .argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let base = std::path::Path::new(&words[0])
        .parent()
        .unwrap_or(std::path::Path::new("/"))
        .to_path_buf();
    ExternalJudge::parse(Protocol::Kattis, &shell_words::join(&words), &base)
        .map(|mut judge| {
            judge.program.show = command.show.clone();
            judge.with_args(args).named(&program.name)
        })
        .map_err(|e| Unjudgeable::Package(format!("the output validator {name}: {e}")))
}
