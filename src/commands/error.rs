//! How a command ends when it ends without an exit code of its own: a [`CommandError`], kept as
//! a type until `main` renders it, whose variant is the exit status; and [`DoesNotCompile`], a
//! source given on the command line (`given`) that does not compile. Its own module, so every
//! front-end names it without reading `mod.rs`, which calls them.

use crate::reporting::{self, LostReport, ReportError, Unfinished};
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

impl CommandError {
    /// The process's exit status, and whether to end with it quietly: after Ctrl-C (130, the
    /// shell's convention for SIGINT: whatever could be reported was), and when the reader of
    /// stdout went away (`| head`), as Unix tools do.
    pub fn exit_code(&self) -> (u8, bool) {
        match self {
            CommandError::Cancelled => (130, true),
            CommandError::Report(error) if error.lost().is_some_and(LostReport::is_broken_pipe) => {
                (reporting::BROKEN_PIPE_EXIT, true)
            }
            CommandError::DoesNotCompile(_) => (1, false),
            CommandError::Report(_) | CommandError::Failed(_) => (2, false),
        }
    }
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
