//! One front-end per subcommand: its flags, what it acts on, which stages run with which reporters,
//! and its exit code, or a [`CommandError`] that `main` turns into its exit status and prints once:
//! exit code 2 for an error (usage, configuration or fixture layout, the host), 1 for a program
//! under test that does not compile, 130 after Ctrl-C, 141 quietly when stdout's reader went away
//! ([`error`]). What they share to start from is [`setup`]'s; what they run lives below, in the
//! domain modules, and nothing there imports from here.

mod add;
mod check;
pub mod checktestdata;
mod error;
mod gen;
mod generate;
mod given;
mod languages;
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
pub use error::CommandError;

pub fn run(cli: Cli) -> Result<ExitCode, CommandError> {
    let color = use_color(cli.color);
    crate::package::languages::choose_python3(cli.python3);
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
        Command::Languages => languages::run(),
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
