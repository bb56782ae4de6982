//! One front-end per subcommand: its flags, what it acts on, which stages run with which
//! reporters, and its exit code (or an error that `main` prints and turns into exit code 2:
//! usage, configuration or fixture layout). What they share to start from is [`setup`]'s; what
//! they run lives below, in the domain modules, and nothing there imports from here.

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
pub use given::DoesNotCompile;

pub fn run(cli: Cli) -> Result<ExitCode> {
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
