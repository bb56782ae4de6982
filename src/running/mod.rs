//! Running: producing a program's output for one case input, and running many cases in parallel.
//! Built-in solvers run in-process on worker threads with a watchdog; external programs (`--exec`,
//! `--isolate`) run as child processes in the sandbox; [`pool`] runs a list of jobs on workers and
//! hands the results back in order. Nothing here compares outputs or prints.

mod external;
mod helpers;
mod in_process;
pub mod interactive;
pub mod pool;
mod subject;

use std::time::Duration;

pub use external::{
    parse_command, parse_command_in, run_external, run_external_with, run_of, startable,
    NotStartable,
};
pub use in_process::{
    install_panic_hook, run_in_process, run_on_this_thread, run_watched, SolveWatch,
};
pub use subject::{Input, RunError, Subject};

/// How a run ended, when it did not end normally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The solver panicked; message and location.
    Panicked(String),
    /// The solver rejected its input (line, column and reason).
    RejectedInput(String),
    /// A process exited with a non-zero status.
    ExitCode(i32),
    /// The built-in player of an interactive problem stopped: the judge said something it
    /// could not read.
    GaveUp(String),
    /// A process was killed by a signal.
    Signal(String),
    TimeLimit,
    MemoryLimit {
        limit_mb: u64,
    },
    OutputLimit {
        limit_mb: u64,
    },
    /// Too many processes at once (a fork bomb); the program was ended.
    ProcessLimit,
}

/// The result of running a program on one input.
#[derive(Debug, Default)]
pub struct Run {
    pub output: Vec<u8>,
    /// The start of what the program wrote to stderr (external programs only).
    pub stderr: Vec<u8>,
    pub time: Duration,
    pub peak_memory_bytes: Option<u64>,
    pub failure: Option<Failure>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panicked(message) => f.write_str(message),
            Failure::RejectedInput(message) => write!(f, "rejected its input: {message}"),
            Failure::ExitCode(code) => write!(f, "exited with status {code}"),
            Failure::GaveUp(why) => write!(f, "gave up: {why}"),
            Failure::Signal(name) => write!(f, "was killed by signal {name}"),
            Failure::TimeLimit => f.write_str("exceeded the time limit"),
            Failure::MemoryLimit { limit_mb } => {
                write!(f, "exceeded the memory limit of {limit_mb} MiB")
            }
            Failure::OutputLimit { limit_mb } => {
                write!(f, "exceeded the output limit of {limit_mb} MiB")
            }
            Failure::ProcessLimit => {
                f.write_str("started too many processes at once and was ended")
            }
        }
    }
}
