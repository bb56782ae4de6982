//! External programs (`check --exec`, `--isolate`, validators, checkers): a program run on one
//! input in the sandbox, and the sandbox's account of a run turned into a [`Run`]. The sandbox
//! crate does the process work; the command line the program comes from is
//! [`crate::command_line`]'s.

use grundy_sandbox::{BoxFile, End, Outcome, Program, SpawnError, Spec};

use super::run::{Failure, Run};
use crate::config::Settings;
use crate::run_input::Input;

/// Runs `program` on the case input at `input` under the limits of `settings`.
pub fn run_external(
    program: &Program,
    input: Input<'_>,
    settings: &Settings,
) -> Result<Run, SpawnError> {
    run_external_with(program, input, vec![], settings)
}

/// [`run_external`] with `files` placed in the program's working folder.
pub fn run_external_with(
    program: &Program,
    input: Input<'_>,
    files: Vec<BoxFile>,
    settings: &Settings,
) -> Result<Run, SpawnError> {
    let limits = settings.run_limits();
    let spec = Spec {
        env: &settings.env,
        files,
        ..Spec::new(program, &limits).stdin(input.as_stdin().map_err(|e| {
            SpawnError::Other {
                command: program
                    .argv
                    .first()
                    .map_or(String::new(), |a| a.to_string_lossy().into_owned()),
                reason: format!("cannot open its input: {e}"),
            }
        })?)
    };
    Ok(run_of(grundy_sandbox::run(spec)?, settings))
}

/// The sandbox's account of a run as a [`Run`] under `settings`.
pub fn run_of(outcome: Outcome, settings: &Settings) -> Run {
    let failure = match outcome.end {
        End::Exited(0) => None,
        End::Exited(code) => Some(Failure::ExitCode(code)),
        End::Signaled { name, .. } => Some(Failure::Signal(name.to_string())),
        End::TimeLimit(clock) => Some(Failure::TimeLimit(clock)),
        End::MemoryLimit => Some(Failure::MemoryLimit {
            limit_mb: settings.memory_limit_mb,
        }),
        End::OutputLimit => Some(Failure::OutputLimit {
            limit_mb: settings.output_limit_mb,
        }),
        End::ProcessLimit => Some(Failure::ProcessLimit),
        // Nothing here cancels a run; kill_all_running (Ctrl-C) ends runs with SIGKILL.
        End::Cancelled => Some(Failure::Signal("SIGKILL".to_string())),
    };
    Run {
        output: outcome.stdout,
        stderr: outcome.stderr,
        cpu: outcome.cpu_time,
        wall: outcome.wall_time,
        peak_memory_bytes: outcome.peak_memory_bytes,
        failure,
    }
}
