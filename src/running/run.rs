//! A run's record ([`Run`]: output, times, peak memory, and how it failed, [`Failure`]), the
//! time limits it runs under ([`TimeLimits`]), and grundy's own executable, which runs built-in
//! code as a contained child ([`own_executable`]). The types every way of running produces;
//! producing them is the other parts' of [`super`].

use std::time::Duration;

use crate::limits::Limits;
use grundy_sandbox::Clock;

/// grundy's own executable, which runs built-in code as a contained child: `grundy solve` under
/// `--isolate`, `grundy checktestdata` for a package's scripts.
pub fn own_executable() -> std::io::Result<std::path::PathBuf> {
    // A unit test's executable is the test harness, which given those words would run the tests
    // they name.
    if cfg!(test) {
        return Err(std::io::Error::other(
            "a unit test has no grundy executable to run (the integration tests run it)",
        ));
    }
    std::env::current_exe()
}

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
    /// Over the CPU time limit, or stopped by the wall-clock backstop (sleeping or blocked).
    TimeLimit(Clock),
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
    /// CPU time: every process and thread of the run (a built-in solver's thread).
    pub cpu: Duration,
    /// Wall-clock time from the start to the end of the main process.
    pub wall: Duration,
    pub peak_memory_bytes: Option<u64>,
    pub failure: Option<Failure>,
}

impl Run {
    /// The time the verdict went by: the wall clock for a run the backstop stopped, else the
    /// CPU time.
    pub fn time(&self) -> Duration {
        match self.failure {
            Some(Failure::TimeLimit(Clock::Wall)) => self.wall,
            _ => self.cpu,
        }
    }
}

/// The time limits of a run: CPU time decides, the wall clock is the backstop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub cpu: Duration,
    pub wall: Duration,
}

impl TimeLimits {
    /// A case's time limits under `limits`.
    pub fn of(limits: &Limits) -> TimeLimits {
        TimeLimits {
            cpu: limits.time,
            wall: limits.wall(),
        }
    }

    /// A CPU time limit with the usual wall-clock backstop.
    pub fn cpu(limit: Duration) -> TimeLimits {
        TimeLimits {
            cpu: limit,
            wall: grundy_sandbox::Limits::wall_for(limit),
        }
    }

    /// The wall clock alone, for built-in code whose thread's CPU clock counts more than it.
    pub fn wall_only(limit: Duration) -> TimeLimits {
        TimeLimits {
            cpu: Duration::MAX,
            wall: limit,
        }
    }

    /// No limit: for a reference (a brute force) that gets all the time it needs.
    pub const UNLIMITED: TimeLimits = TimeLimits {
        cpu: Duration::MAX,
        wall: Duration::MAX,
    };
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panicked(message) => f.write_str(message),
            Failure::RejectedInput(message) => write!(f, "rejected its input: {message}"),
            Failure::ExitCode(code) => write!(f, "exited with status {code}"),
            Failure::GaveUp(why) => write!(f, "gave up: {why}"),
            Failure::Signal(name) => write!(f, "was killed by signal {name}"),
            Failure::TimeLimit(Clock::Cpu) => f.write_str("exceeded the CPU time limit"),
            Failure::TimeLimit(Clock::Wall) => f.write_str(
                "was stopped by the wall-clock limit while under its CPU time limit \
                 (sleeping or blocked?)",
            ),
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_unit_test_never_runs_itself_as_grundy() {
        let refused = super::own_executable().unwrap_err().to_string();
        assert!(
            refused.contains("a unit test has no grundy executable"),
            "{refused}"
        );
    }
}
