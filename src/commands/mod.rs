//! One front-end per subcommand: its flags, what it acts on, which stages run with which reporters,
//! and how it ended ([`Ended`]), or a [`CommandError`] that `main` prints once; [`exit_status`]
//! alone makes either the exit status (0 all good, 1 something failed, 2 usage, configuration,
//! layout, the host or a lost report, 130 after Ctrl-C, 141 quietly when stdout's reader went
//! away). The judging commands are given the one token Ctrl-C sets ([`setup::interrupts`]).
//! What they share to start from is [`setup`]'s; what they run lives below, in the domain
//! modules, and nothing there imports from here.

mod add;
mod check;
pub mod checktestdata;
mod error;
mod export;
mod gen;
mod generate;
mod given;
mod languages;
mod list;
mod missing;
mod mutants;
mod new;
mod report;
mod setup;
mod sg;
mod solve;
mod stress;
mod timelimit;
mod validate;
mod verify;

use std::io::IsTerminal;

use anyhow::Result;

use crate::cli::{Cli, ColorChoice, Command};
use crate::reporting::Ended;
pub use error::{exit_status, CommandError};
use setup::interrupts;

pub fn run(cli: Cli) -> Result<Ended, CommandError> {
    let color = use_color(cli.color);
    crate::package::languages::choose_python3(cli.python3);
    crate::files::store::on_recovery(setup::tell_recovered);
    match cli.command {
        Command::Check(args) => check::run(*args, color, interrupts()),
        Command::List(args) => list::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Add(args) => add::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Generate(args) => generate::run(args, color, interrupts()),
        Command::Stress(args) => stress::run(args, color, interrupts()),
        Command::Validate(args) => validate::run(args, interrupts()),
        Command::Checktestdata(args) => checktestdata::run(args),
        Command::New(args) => new::run(args),
        Command::Sg(args) => sg::run(args),
        Command::Verify(args) => verify::run(args, color, interrupts()),
        Command::Timelimit(args) => timelimit::run(args, color, interrupts()),
        Command::Export(args) => export::run(args, color, interrupts()),
        Command::Mutants(args) => mutants::run(args, color, interrupts()),
        Command::Report(command) => report::run(command, color, interrupts()),
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
