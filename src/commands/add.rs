//! `grundy add PROBLEM CASE [--input FILE] [--expect FILE | --brute]`: creates a fixture. The
//! input comes from FILE or stdin; the expected output from FILE, the brute force, or the built-in
//! solver. Nothing existing is ever overwritten, and a case the reference fails on is not written
//! ([`crate::new_case`] claims and writes it).

use std::io::{IsTerminal, Read};
use std::path::Path;

use anyhow::{Context, Result};

use super::error::CommandError;
use super::setup::load_config;
use crate::cli::AddArgs;
use crate::config::Overrides;
use crate::new_case::{reference_output, NewCase, Reference};
use crate::reporting::Ended;

pub fn run(args: AddArgs) -> Result<Ended, CommandError> {
    let config = load_config(&args.sources, Overrides::default())?;
    let new_case = NewCase::claim(&config, &args.problem, &args.case)?;
    let input = match &args.input {
        Some(path) => read(path)?,
        None => {
            // On a terminal, say what is awaited rather than wait in silence.
            if std::io::stdin().is_terminal() {
                crate::reporting::notes::bare(format_args!(
                    "Type the input of {}/{}, then Ctrl-D at the start of a line (or give it \
                     with --input FILE):",
                    args.problem, args.case
                ));
            }
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            bytes
        }
    };
    let expected = match &args.expect {
        Some(path) => read(path)?,
        None => {
            let reference = if args.brute {
                Reference::BruteForce
            } else {
                Reference::Solver(config.settings(&args.problem).limits.time)
            };
            reference_output(&args.problem, &input, reference)?
        }
    };
    new_case.write(&input, &expected, None)?;
    Ok(Ended::Passed)
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))
}
