//! Running: producing a program's output for one case input, and running many cases in parallel.
//! Built-in solvers run in-process on worker threads with a watchdog; external programs (`--exec`,
//! `--isolate`) run as child processes in the sandbox; [`pool`] runs a list of jobs on workers and
//! hands the results back in order. Nothing here compares outputs or prints.

mod external;
mod helpers;
mod in_process;
pub mod interactive;
pub mod pool;
mod run;
mod subject;

pub use crate::run_input::{Input, RunError};
pub use external::{run_external_with, run_of};
pub use grundy_sandbox::Clock;
pub use in_process::{
    install_panic_hook, overrun_run, run_in_process, run_on_this_thread, Overrun, SolveWatch,
};
pub use run::{own_executable, Failure, Run, TimeLimits};
pub use subject::Subject;
