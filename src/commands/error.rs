//! How a command ends, and the one place its exit status is decided ([`exit_status`]): a run
//! that reached its end says how it came out ([`Ended`]); one that did not is a
//! [`CommandError`], kept as a type until `main` renders it, whose variant is the exit status;
//! [`DoesNotCompile`] is a source given on the command line (`given`) that does not compile.
//! Its own module, so every front-end names it without reading `mod.rs`, which calls them.

use crate::reporting::{self, Ended, LostReport, ReportError, Unfinished};
use crate::running::pool::Stop;

/// Why a command ends without an exit code of its own, kept as a type until `main` renders it:
/// each kind has its exit status, told by its variant, never by looking into an error.
#[derive(Debug)]
pub enum CommandError {
    /// Ctrl-C cut it short; whatever could be reported was.
    Cancelled,
    /// The program under test does not compile: its failure, not a usage error.
    DoesNotCompile(DoesNotCompile),
    /// A report could not be written (standard output would not take it, or a report file).
    Report(ReportError),
    /// Anything else: usage, configuration, fixtures, the host.
    Failed(anyhow::Error),
}

/// The exit status of how a command ended, decided here alone: 0 everything judged is as it
/// must be; 1 something is not (and a program under test that does not compile); 2 a run that
/// could not judge all it was given, a usage, configuration or layout error, the host's, or a
/// report that could not be written; 130 after Ctrl-C (the shell's convention for SIGINT);
/// 141 when the reader of stdout went away (`| head`), as a Unix tool killed by SIGPIPE; a
/// protocol's own status where a command speaks one (`checktestdata`).
pub fn exit_status(ended: &Result<Ended, CommandError>) -> u8 {
    match ended {
        Ok(Ended::Passed) => 0,
        Ok(Ended::Failed) | Err(CommandError::DoesNotCompile(_)) => 1,
        Ok(Ended::Incomplete) => 2,
        Ok(Ended::Cancelled) | Err(CommandError::Cancelled) => 130,
        Ok(Ended::Protocol(status)) => *status,
        Err(CommandError::Report(error)) if broken_pipe(error) => reporting::BROKEN_PIPE_EXIT,
        Err(CommandError::Report(_) | CommandError::Failed(_)) => 2,
    }
}

impl CommandError {
    /// Whether the command ends without a word: after Ctrl-C (whatever could be reported
    /// was), and when the reader of stdout went away, as Unix tools do.
    pub fn quiet(&self) -> bool {
        match self {
            CommandError::Cancelled => true,
            CommandError::Report(error) => broken_pipe(error),
            CommandError::DoesNotCompile(_) | CommandError::Failed(_) => false,
        }
    }
}

/// Whether the report was lost because stdout's reader went away.
fn broken_pipe(error: &ReportError) -> bool {
    error.lost().is_some_and(LostReport::is_broken_pipe)
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Cancelled => f.write_str("cancelled (Ctrl-C)"),
            CommandError::DoesNotCompile(error) => error.fmt(f),
            CommandError::Report(error) => error.fmt(f),
            // The error and its causes, on one line.
            CommandError::Failed(error) => write!(f, "{error:#}"),
        }
    }
}

impl<E: Into<anyhow::Error>> From<E> for CommandError {
    fn from(error: E) -> Self {
        CommandError::Failed(error.into())
    }
}

impl From<Stop> for CommandError {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Cancelled => CommandError::Cancelled,
            Stop::Failed(error) => CommandError::Failed(error),
        }
    }
}

impl From<DoesNotCompile> for CommandError {
    fn from(error: DoesNotCompile) -> Self {
        CommandError::DoesNotCompile(error)
    }
}

impl From<ReportError> for CommandError {
    fn from(error: ReportError) -> Self {
        CommandError::Report(error)
    }
}

impl From<LostReport> for CommandError {
    fn from(lost: LostReport) -> Self {
        CommandError::Report(ReportError::Lost(lost))
    }
}

impl From<Unfinished> for CommandError {
    fn from(unfinished: Unfinished) -> Self {
        match unfinished {
            Unfinished::Report(error) => CommandError::Report(error),
            Unfinished::Failed(error) => CommandError::Failed(error),
        }
    }
}

/// A source given on the command line does not compile: the program under test failed before
/// any case ran (exit 1, as a failed case is; nothing was judged). Not an error type of its
/// own, so it stays this type up to `main` ([`CommandError::DoesNotCompile`]); made by
/// `given`.
#[derive(Debug)]
pub struct DoesNotCompile {
    pub(super) source_path: String,
    pub(super) message: String,
}

impl std::fmt::Display for DoesNotCompile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` does not compile, so nothing was judged:\n{}",
            self.source_path, self.message
        )
    }
}
