//! `grundy solve PROBLEM [--brute]`: a built-in solver as a filter from stdin to stdout. Malformed
//! input is reported with line and column and exits 1; an unknown problem exits 2. For an
//! interactive problem, the built-in player plays the judge on stdin and stdout, a line at a
//! time; `--answer` (or `--brute`) prints the answer file for an input instead.

use std::io::{BufRead, Read, Write};

use anyhow::{Context, Result};

use super::setup::built_in;
use crate::cli::SolveArgs;
use crate::commands::error::CommandError;
use crate::reporting::{notes, Ended};
use crate::running::{run_on_this_thread, Failure};

pub fn run(args: SolveArgs) -> Result<Ended, CommandError> {
    let problem = built_in(&args.problem)?;
    if let (Some(interaction), false) = (problem.interact, args.brute || args.answer) {
        let mut judge = StdioLink {
            input: std::io::stdin().lock(),
            output: std::io::stdout().lock(),
        };
        return match (interaction.play)(&mut judge) {
            Ok(()) => Ok(Ended::Passed),
            Err(message) => {
                notes::error(format_args!("the {} player gave up: {message}", problem.id));
                Ok(Ended::Failed)
            }
        };
    }
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
        .map_err(crate::reporting::LostReport::from)?;
    match run.failure {
        None => Ok(Ended::Passed),
        Some(Failure::RejectedInput(message)) => {
            notes::error(format_args!("<stdin>: {message}"));
            Ok(Ended::Failed)
        }
        Some(failure) => {
            notes::error(format_args!("the {} solver {failure}", problem.id));
            Ok(Ended::Failed)
        }
    }
}

/// The judge as this process's stdin and stdout: one line at a time, flushed at once.
struct StdioLink<I: BufRead, O: Write> {
    input: I,
    output: O,
}

impl<I: BufRead, O: Write> grundy_problems::Link for StdioLink<I, O> {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        let mut line = Vec::new();
        match self.input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                while matches!(line.last(), Some(b'\n' | b'\r')) {
                    line.pop();
                }
                Some(line)
            }
        }
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        self.output
            .write_all(line)
            .and_then(|()| self.output.write_all(b"\n"))
            .and_then(|()| self.output.flush())
            .is_ok()
    }
}
