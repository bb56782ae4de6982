//! The program under test: the built-in solver, run in-process under the problem's time limit,
//! or an external program (`--exec`), run in the sandbox under the limits `check --exec` uses.
//! Stress testing only ever asks it for a [`Run`] of one input.

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result};
use grundy_problems::SolveFn;

use crate::config::Settings;
use crate::running::{run_external, run_in_process, Run};

pub enum Program {
    BuiltIn {
        solve: SolveFn,
        time_limit: Duration,
    },
    External {
        program: grundy_sandbox::Program,
        /// The command line as given, for messages.
        command: String,
        settings: Settings,
    },
}

impl Program {
    /// Runs the program on `input`. An error means the run could not even start (an external
    /// program that cannot be spawned), which makes the whole stress run meaningless.
    pub fn run(&self, input: &[u8]) -> Result<Run> {
        match self {
            Program::BuiltIn { solve, time_limit } => {
                Ok(run_in_process(*solve, input.to_vec(), *time_limit))
            }
            Program::External {
                program, settings, ..
            } => {
                // The sandbox reads stdin from a file.
                let mut file = tempfile::Builder::new()
                    .prefix("grundy-stress-")
                    .suffix(".in")
                    .tempfile()
                    .context("cannot create a temporary input file")?;
                file.write_all(input)
                    .and_then(|()| file.flush())
                    .context("cannot write a temporary input file")?;
                Ok(run_external(program, file.path(), settings)?)
            }
        }
    }

    /// `solver` or `program`, for messages.
    pub fn role(&self) -> &'static str {
        match self {
            Program::BuiltIn { .. } => "solver",
            Program::External { .. } => "program",
        }
    }

    /// `the built-in solver of nim` or `the program `./a.out``.
    pub fn describe(&self, problem: &str) -> String {
        match self {
            Program::BuiltIn { .. } => format!("the built-in solver of {problem}"),
            Program::External { command, .. } => format!("the program `{command}`"),
        }
    }
}
