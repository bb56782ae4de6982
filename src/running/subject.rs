//! The program under test, as `check` and `stress` both choose it: the built-in solver run
//! in-process, the built-in solver as a `grundy solve` child process (`--isolate`), or a user's
//! program (`--exec`). One input in, one [`Run`] out.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use grundy_problems::Problem;
use grundy_sandbox::Program;

use super::external::run_external_with;
use super::in_process::{run_in_process, run_watched, SolveWatch};
use super::interactive::memory::built_in_pair;
use super::interactive::processes::{self, Side};
use super::interactive::InteractiveRun;
use super::run::{Run, TimeLimits};
use crate::checking::{Checker, ExternalJudge, Feedback, Interactor, Protocol};
use crate::command_line::{parse_command, startable};
use crate::config::Settings;
use crate::run_input::{Input, RunError};

/// A judged program's command line names what holds the answers it is judged against.
#[derive(Debug, thiserror::Error)]
#[error("cannot judge `{command}`: {}", explain(error))]
pub struct AnswersShown {
    command: String,
    error: grundy_sandbox::HiddenError,
}

fn explain(error: &grundy_sandbox::HiddenError) -> String {
    use grundy_sandbox::HiddenError;
    match error {
        HiddenError::Inside { shown, hidden } => {
            let same = std::fs::canonicalize(shown).ok() == std::fs::canonicalize(hidden).ok();
            let place = match same {
                true => "the folder of the answers of the cases judged".to_string(),
                false => format!(
                    "which is in `{}`, where the answers of the cases judged are",
                    hidden.display()
                ),
            };
            format!(
                "it names `{}`, {place}; a judged program never sees them: give it its own \
                 files (a folder holding the answers is shown with them hidden)",
                shown.display()
            )
        }
        HiddenError::CannotMask { shown, hidden } => format!(
            "it names the folder `{}`, which holds `{}`, where the answers of the cases judged \
             are, and without namespaces or Landlock this machine cannot show a folder without \
             them: name the program's own files, or a folder without the answers",
            shown.display(),
            hidden.display()
        ),
        other => other.to_string(),
    }
}

/// What produces the output being judged.
#[derive(Clone)]
pub enum Subject {
    /// The built-in solvers, in-process.
    BuiltIn,
    /// The built-in solvers as `grundy solve PROBLEM` child processes in the sandbox.
    Isolated { grundy: PathBuf },
    /// A user's program in the sandbox.
    External { program: Program, command: String },
}

impl Subject {
    /// `--exec 'CMD'` if given, else the built-in solvers (as processes under `isolate`).
    pub fn choose(exec: Option<&str>, isolate: bool) -> Result<Subject> {
        Ok(match exec {
            Some(command) => {
                let program = parse_command(command)?;
                // One clear error before judging, rather than a failure per case.
                startable(&program).with_context(|| format!("cannot run `{command}`"))?;
                Subject::External {
                    program,
                    command: command.to_string(),
                }
            }
            None if isolate => Subject::Isolated {
                grundy: super::run::own_executable()
                    .context("cannot find the grundy executable")?,
            },
            None => Subject::BuiltIn,
        })
    }

    /// Hides `answers` (folders: [`crate::discovery::answer_folders`]) from a user's program,
    /// whatever its command line names: an error, before anything is judged, when it names one
    /// of them, a path inside one, or (where this machine cannot hide part of a folder) a folder
    /// holding one.
    pub fn hide_answers(&mut self, answers: Vec<PathBuf>) -> Result<(), AnswersShown> {
        let Subject::External { program, command } = self else {
            return Ok(());
        };
        program.hide = answers;
        grundy_sandbox::check_hidden(program).map_err(|error| AnswersShown {
            command: command.clone(),
            error,
        })
    }

    /// The folder a user's program's runs start from (a built submission's build folder), if
    /// it has one.
    pub fn working_copy(&self) -> Option<&Path> {
        match self {
            Subject::External { program, .. } => program.workdir_from.as_deref(),
            _ => None,
        }
    }

    /// Whether the subject is a user's program rather than a built-in solver.
    pub fn is_external(&self) -> bool {
        matches!(self, Subject::External { .. })
    }

    /// Runs the subject for the problem `id` on `input` under `settings`. `built_in` is the
    /// problem's built-in side (required unless the subject is external). A built-in solver runs
    /// on this thread under `watch` when one is given (a pool worker), else on a solver thread
    /// of its own.
    pub fn run(
        &self,
        id: &str,
        built_in: Option<&Problem>,
        input: Input<'_>,
        settings: &Settings,
        watch: Option<&SolveWatch>,
    ) -> Result<Run, RunError> {
        match self {
            Subject::BuiltIn => {
                let solve = built_in
                    .expect("problems without a built-in solver are refused before running")
                    .solve;
                let bytes = input.read()?.into_owned();
                Ok(match watch {
                    Some(watch) => {
                        run_watched(solve, bytes, TimeLimits::of(&settings.limits), watch)
                    }
                    None => run_in_process(solve, bytes, TimeLimits::of(&settings.limits)),
                })
            }
            Subject::Isolated { grundy } => {
                let mut argv: Vec<std::ffi::OsString> =
                    vec![grundy.clone().into(), "solve".into(), id.into()];
                // An interactive problem's `solve` plays; here its answer is wanted.
                if built_in.is_some_and(|problem| problem.interact.is_some()) {
                    argv.push("--answer".into());
                }
                run_program(&Program::new(argv), input, settings)
            }
            Subject::External { program, .. } => run_program(program, input, settings),
        }
    }

    /// Runs the subject for the problem `id` against `interactor` on the case `input` and its
    /// `answer` file, with the feedback folder the passes of a multi-pass case share (for a
    /// Kattis interactor program); `checker` is the case's, which judges a testlib interactor's
    /// output file when it is more than a comparison.
    pub fn interact(
        &self,
        id: &str,
        (interactor, checker): (&Interactor, &Checker),
        (input, answer, feedback): (Input<'_>, &[u8], Option<&Feedback>),
        settings: &Settings,
        watch: Option<&SolveWatch>,
    ) -> Result<InteractiveRun, RunError> {
        let process = match self {
            Subject::BuiltIn => None,
            Subject::Isolated { grundy } => Some(Program::new([
                grundy.as_os_str(),
                "solve".as_ref(),
                id.as_ref(),
            ])),
            Subject::External { program, .. } => Some(program.clone()),
        };
        match (interactor, process) {
            (Interactor::BuiltIn { interaction, .. }, None) => Ok(built_in_pair(
                *interaction,
                &input.read()?,
                answer,
                settings.limits.time,
                settings.limits.judge_time,
                watch,
            )),
            (Interactor::BuiltIn { interaction, .. }, Some(program)) => {
                Ok(processes::program_against_judge(
                    &program,
                    *interaction,
                    &input.read()?,
                    answer,
                    settings,
                    watch,
                )?)
            }
            (Interactor::External(judge), Some(program)) => Ok(processes::against_interactor(
                Side::Program(&program),
                judge,
                (input, answer, feedback),
                settings,
                output_checker(judge, checker),
            )?),
            (Interactor::External(judge), None) => {
                let player = grundy_problems::find(id)
                    .and_then(|problem| problem.interact)
                    .map(|interaction| interaction.play)
                    .ok_or_else(|| {
                        RunError::Setup(anyhow::anyhow!(
                            "{id} has no built-in player to face the interactor `{judge}`: judge \
                             a program with --exec 'CMD'"
                        ))
                    })?;
                Ok(processes::against_interactor(
                    Side::Player(player),
                    judge,
                    (input, answer, feedback),
                    settings,
                    output_checker(judge, checker),
                )?)
            }
        }
    }

    /// `solver` or `program`, for messages.
    pub fn role(&self) -> &'static str {
        match self {
            Subject::BuiltIn | Subject::Isolated { .. } => "solver",
            Subject::External { .. } => "program",
        }
    }

    /// `the built-in solver of nim` or `the program `./a.out``.
    pub fn describe(&self, problem: &str) -> String {
        match self {
            Subject::BuiltIn | Subject::Isolated { .. } => {
                format!("the built-in solver of {problem}")
            }
            Subject::External { command, .. } => format!("the program `{command}`"),
        }
    }

    /// The `--exec` command line as given.
    pub fn command(&self) -> Option<&str> {
        match self {
            Subject::External { command, .. } => Some(command),
            _ => None,
        }
    }
}

/// The checker a testlib interactor's output file goes through: the case's checker, when it is
/// not a plain comparison (testlib problems pair an interactor with a checker).
fn output_checker<'a>(interactor: &ExternalJudge, checker: &'a Checker) -> Option<&'a Checker> {
    (interactor.protocol == Protocol::Testlib && !checker.compares()).then_some(checker)
}

fn run_program(program: &Program, input: Input<'_>, settings: &Settings) -> Result<Run, RunError> {
    let limits = (&settings.limits, settings.env.as_slice());
    Ok(run_external_with(program, input, vec![], limits)?)
}
