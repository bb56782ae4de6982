//! `grundy solve PROBLEM [--brute]`: a built-in solver as a filter from stdin to stdout. Malformed
//! input is reported with line and column and exits 1; an unknown problem exits 2.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::built_in;
use crate::cli::SolveArgs;
use crate::running::{run_on_this_thread, Failure};

pub fn run(args: SolveArgs) -> Result<ExitCode> {
    let problem = built_in(&args.problem)?;
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .context("cannot read standard input")?;
    let solve = if args.brute {
        problem.brute
    } else {
        problem.solve
    };
    // On the main thread: under `--isolate` the sandbox sets the stack limit to the memory limit,
    // as judges do, and a separate big-stack thread would count against the memory limit.
    let run = run_on_this_thread(solve, input);
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(&run.output)
        .and_then(|()| stdout.flush())
        .context("cannot write standard output")?;
    match run.failure {
        None => Ok(ExitCode::SUCCESS),
        Some(Failure::RejectedInput(message)) => {
            eprintln!("error: <stdin>: {message}");
            Ok(ExitCode::FAILURE)
        }
        Some(failure) => {
            eprintln!("error: the {} solver {failure}", problem.id);
            Ok(ExitCode::FAILURE)
        }
    }
}
