//! External programs (`check --exec`, `--isolate`, validators, checkers): a program run on one
//! input in the sandbox ([`crate::contained`] makes every run), and the sandbox's account of a
//! run turned into a [`Run`]. The sandbox crate does the process work; the command line the
//! program comes from is [`crate::command_line`]'s.

use std::ffi::OsString;

use grundy_sandbox::{BoxFile, End, Outcome, Program, SpawnError};

use super::run::{Failure, Run};
use crate::contained::Contained;
use crate::limits::Limits;
use crate::run_input::Input;

/// Runs `program` on the case input at `input` under `limits`, with `files` placed in its
/// working folder and `env` added to its environment.
pub fn run_external_with(
    program: &Program,
    input: Input<'_>,
    files: Vec<BoxFile>,
    (limits, env): (&Limits, &[(OsString, OsString)]),
) -> Result<Run, SpawnError> {
    let stdin = input.as_stdin().map_err(|e| SpawnError::Other {
        command: program
            .argv
            .first()
            .map_or(String::new(), |a| a.to_string_lossy().into_owned()),
        reason: format!("cannot open its input: {e}"),
    })?;
    let outcome = Contained::new(program, limits.program())
        .stdin(stdin)
        .env(env)
        .files(files)
        .run()?;
    Ok(run_of(outcome, limits))
}

/// The sandbox's account of a run as a [`Run`] under `limits`.
pub fn run_of(outcome: Outcome, limits: &Limits) -> Run {
    let failure = match outcome.end {
        End::Exited(0) => None,
        End::Exited(code) => Some(Failure::ExitCode(code)),
        End::Signaled { name, .. } => Some(Failure::Signal(name.to_string())),
        End::TimeLimit(clock) => Some(Failure::TimeLimit(clock)),
        End::MemoryLimit => Some(Failure::MemoryLimit {
            limit_mb: limits.memory_mib,
        }),
        End::OutputLimit => Some(Failure::OutputLimit {
            limit_mb: limits.output_mib,
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
