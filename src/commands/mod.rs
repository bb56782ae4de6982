//! One front-end per subcommand: its flags, what it acts on, which stages run with which
//! reporters, and its exit code, or a [`CommandError`] that `main` turns into its exit status and
//! prints once: exit code 2 for an error (usage, configuration or fixture layout, the host), 1
//! for a program under test that does not compile, 130 after Ctrl-C, 141 quietly when stdout's
//! reader went away. What they share to start from is [`setup`]'s; what they run lives below, in
//! the domain modules, and nothing there imports from here.

mod add;
mod check;
pub mod checktestdata;
mod gen;
mod generate;
mod given;
mod list;
mod new;
mod setup;
mod sg;
mod solve;
mod stress;
mod timelimit;
mod validate;
mod verify;

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Cli, ColorChoice, Command};
use crate::reporting::{self, LostReport, ReportError, Unfinished};
use crate::running::pool::Stop;
pub use given::DoesNotCompile;

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

pub fn run(cli: Cli) -> Result<ExitCode, CommandError> {
    let color = use_color(cli.color);
    match cli.command {
        Command::Check(args) => check::run(*args, color),
        Command::List(args) => list::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Add(args) => add::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Generate(args) => generate::run(args, color),
        Command::Stress(args) => stress::run(args, color),
        Command::Validate(args) => validate::run(args),
        Command::Checktestdata(args) => checktestdata::run(args),
        Command::New(args) => new::run(args),
        Command::Sg(args) => sg::run(args),
        Command::Verify(args) => verify::run(args, color),
        Command::Timelimit(args) => timelimit::run(args, color),
    }
}

/// Color only on a terminal, never when NO_COLOR is set (https://no-color.org), unless forced.
fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
                && std::io::stdout().is_terminal()
        }
    }
}
