//! Which checker judges a case's output, and which interactor an interactive problem's
//! submissions talk to: a built-in problem's settings, a package's default output validator
//! with the case's flags, or its own output validator (built) in the Kattis protocol with the
//! case's `output_validator_args` appended.

use crate::checking::{Checker, ExternalJudge, Interactor, Protocol};
use crate::package::default_validator::Options;
use crate::package::programs::Program;
use crate::package::OutputValidator;

use super::build::{Build, Builds};
use super::model::{Judging, Problem, TestCase};

/// The checker for `case`, or why there is none (the package is then invalid).
pub fn checker_for(problem: &Problem, builds: &Builds, case: &TestCase) -> Result<Checker, String> {
    match &problem.judging {
        Judging::Settings(settings) => Ok(settings.checker.clone()),
        Judging::Package {
            validator: OutputValidator::Default,
            ..
        } => case
            .default_validator
            .clone()
            .unwrap_or_else(|| Ok(Options::default()))
            .map(Checker::KattisDefault),
        Judging::Package {
            validator: OutputValidator::Custom(programs),
            ..
        } => kattis_judge(first(programs), builds, &case.output_validator_args)
            .map(Checker::External),
    }
}

/// The interactor of an interactive problem (`None` for the others), or why there is none.
pub fn interactor_for(problem: &Problem, builds: &Builds) -> Result<Option<Interactor>, String> {
    match &problem.judging {
        Judging::Settings(settings) => Ok(settings.interactor.clone()),
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
) -> Result<ExternalJudge, String> {
    let command = match builds.of(program) {
        Build::Ready { command, .. } => command,
        Build::Failed(message) => {
            return Err(format!(
                "the output validator {} did not compile: {message}",
                program.name
            ))
        }
        Build::Skipped(why) => return Err(format!("the output validator {}: {why}", program.name)),
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
        .map_err(|e| format!("the output validator {}: {e}", program.name))
}
