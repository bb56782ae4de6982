//! grundy: a judge runner for competitive-programming problems.
//!
//! Layers, each importing only from those below it (ARCHITECTURE.md draws them):
//! - `cli` parses and `commands` holds one front-end per subcommand (its flags, what it runs,
//!   which reporters, its exit code); nothing below imports either.
//! - The domain: `model` (the problems as judged), `build` (programs built into the cache),
//!   `validation` (a problem's data through its validators), `verification` (submissions against
//!   what they must get), `generation` (test data from `generators.yaml`), `stress`, `explore`
//!   (`sg`), `new_case`, `plan` (what `check` judges: each problem one type, with its settings
//!   and each case's judge), `root_packages` (the fixtures root's packages, each read once), and
//!   `stages` (the pool as a command's stages use it).
//! - The case pipeline: `config` (runner.toml) → `discovery` (fixtures, filters, partitions) →
//!   `running` (in-process solvers, external programs) → `checking` (checkers) and `diffing`
//!   (diffs), tied together per case by `judging` → `reporting` (one event stream for every
//!   command: human, JSON, JUnit).
//! - Below them: `package` (Kattis packages as data), `checktestdata`, `files`, `command_line`,
//!   `run_input`, `limits` (the one type of limits), `contained` (every sandbox run), `locate`,
//!   `bounds`, `escape`, `suggest`, `shipped` (the built-in problems' fixtures the binary carries).

mod blessing;
mod bounds;
mod build;
mod builtin;
mod checking;
mod checktestdata;
mod cli;
mod command_line;
mod commands;
mod config;
mod contained;
mod contest;
mod diffing;
mod discovery;
mod escape;
mod explore;
mod export;
mod files;
mod generation;
mod judging;
mod limits;
mod locate;
mod model;
mod mutants;
mod new_case;
mod package;
mod plan;
mod reporting;
mod root_packages;
mod run_input;
mod running;
mod seeds;
mod shipped;
mod stages;
mod stress;
mod suggest;
mod validation;
mod verification;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    running::install_panic_hook();
    let cli = cli::Cli::parse_from(cli::normalized(std::env::args_os()));
    let ended = commands::run(cli);
    // The one place a command's error is said, and its exit status chosen by how it ended.
    if let Err(error) = &ended {
        if !error.quiet() {
            eprintln!("error: {}", escape::visible(&error.to_string()));
        }
    }
    ExitCode::from(commands::exit_status(&ended))
}
