//! The program under test, as `check` and `stress` both choose it: the built-in solver run
//! in-process, the built-in solver as a `grundy solve` child process (`--isolate`), or a user's
//! program (`--exec`). One input in, one [`Run`] out.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use grundy_problems::Problem;
use grundy_sandbox::{Program, SpawnError};

use super::interactive::{built_in_pair, InteractiveRun};
use super::{parse_command, run_external, run_in_process, run_watched, Run, SolveWatch};
use crate::checking::Interactor;
use crate::config::Settings;

/// What produces the output being judged.
pub enum Subject {
    /// The built-in solvers, in-process.
    BuiltIn,
    /// The built-in solvers as `grundy solve PROBLEM` child processes in the sandbox.
    Isolated { grundy: PathBuf },
    /// A user's program in the sandbox.
    External { program: Program, command: String },
}

/// The input of one run.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// A fixture file.
    File(&'a Path),
    /// Bytes made in memory (a generated input).
    Bytes(&'a [u8]),
}

impl Input<'_> {
    /// The input's bytes (read from its file).
    pub fn read(&self) -> Result<std::borrow::Cow<'_, [u8]>, RunError> {
        match self {
            Input::Bytes(bytes) => Ok(std::borrow::Cow::Borrowed(bytes)),
            Input::File(path) => {
                std::fs::read(path)
                    .map(std::borrow::Cow::Owned)
                    .map_err(|error| RunError::Unreadable {
                        path: path.to_path_buf(),
                        error,
                    })
            }
        }
    }
}

/// Why a run did not happen.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input file cannot be read: that case fails, the others go on.
    #[error("cannot read `{}`: {error}", path.display())]
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The program cannot be started at all: the whole run is meaningless.
    #[error(transparent)]
    CannotStart(#[from] SpawnError),
    /// grundy could not prepare the run (a temporary file).
    #[error("{0:#}")]
    Setup(anyhow::Error),
}

impl Subject {
    /// `--exec 'CMD'` if given, else the built-in solvers (as processes under `isolate`).
    pub fn choose(exec: Option<&str>, isolate: bool) -> Result<Subject> {
        Ok(match exec {
            Some(command) => {
                let program = parse_command(command)?;
                // One clear error before judging, rather than a failure per case.
                super::startable(&program)
                    .map_err(|e| anyhow::anyhow!("cannot run `{command}`: {e}"))?;
                Subject::External {
                    program,
                    command: command.to_string(),
                }
            }
            None if isolate => Subject::Isolated {
                grundy: std::env::current_exe().context("cannot find the grundy executable")?,
            },
            None => Subject::BuiltIn,
        })
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
                    Some(watch) => run_watched(solve, bytes, settings.time_limit, watch),
                    None => run_in_process(solve, bytes, settings.time_limit),
                })
            }
            Subject::Isolated { grundy } => {
                let program = Program {
                    argv: vec![grundy.clone().into(), "solve".into(), id.into()],
                };
                run_program(&program, input, settings)
            }
            Subject::External { program, .. } => run_program(program, input, settings),
        }
    }

    /// Runs the subject for the problem `id` against `interactor` on the case `input` and its
    /// `answer` file.
    pub fn interact(
        &self,
        id: &str,
        interactor: &Interactor,
        input: Input<'_>,
        answer: &[u8],
        settings: &Settings,
        watch: Option<&SolveWatch>,
    ) -> Result<InteractiveRun, RunError> {
        let input = input.read()?;
        match (self, interactor) {
            (Subject::BuiltIn, Interactor::BuiltIn { interaction, .. }) => Ok(built_in_pair(
                *interaction,
                &input,
                answer,
                settings.time_limit,
                settings.judge_time_limit,
                watch,
            )),
            _ => Err(RunError::Setup(anyhow::anyhow!(
                "{id}: judging {} against the interactor {interactor} is not supported yet",
                self.describe(id)
            ))),
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

fn run_program(program: &Program, input: Input<'_>, settings: &Settings) -> Result<Run, RunError> {
    match input {
        Input::File(path) => Ok(run_external(program, path, settings)?),
        Input::Bytes(bytes) => {
            // The sandbox reads stdin from a file.
            let mut file = tempfile::Builder::new()
                .prefix("grundy-input-")
                .suffix(".in")
                .tempfile()
                .context("cannot create a temporary input file")
                .map_err(RunError::Setup)?;
            file.write_all(bytes)
                .and_then(|()| file.flush())
                .context("cannot write a temporary input file")
                .map_err(RunError::Setup)?;
            Ok(run_external(program, file.path(), settings)?)
        }
    }
}
