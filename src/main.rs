//! grundy: a judge runner for competitive-programming problems.
//!
//! The pipeline, one module per stage: `config` (runner.toml) → `discovery` (fixtures, filters,
//! partitions) → `running` (in-process solvers, external programs) → `checking` (checkers) and
//! `diffing` (diffs), tied together per case by `judging` → `reporting` (one event stream for
//! every command: human, JSON, JUnit). `commands` holds one file per subcommand; `cli` only
//! parses.

mod blessing;
mod bounds;
mod builtin;
mod checking;
mod checktestdata;
mod cli;
mod commands;
mod config;
mod diffing;
mod discovery;
mod escape;
mod files;
mod judging;
mod locate;
mod package;
mod reporting;
mod running;
mod suggest;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    running::install_panic_hook();
    let cli = cli::Cli::parse_from(cli::normalized(std::env::args_os()));
    match commands::run(cli) {
        Ok(code) => code,
        // The one place a command's error is said, and its exit status chosen by its kind.
        Err(error) => {
            let (code, quiet) = error.exit_code();
            if !quiet {
                eprintln!("error: {}", escape::visible(&error.to_string()));
            }
            ExitCode::from(code)
        }
    }
}
