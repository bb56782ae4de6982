//! The worker pool as a command's stages use it (`verify`'s building, validation and judging,
//! `check`'s prepare stage, `generate`, `stress` on a package, `validate`, `timelimit`): a
//! progress bar per stage drawn through [`Stages`], the outputs handed back in job order, and
//! [`Stop::Cancelled`] after Ctrl-C. The pool itself (workers, fail-fast, the cancel token) is
//! [`crate::running::pool`]'s; this sits above it and the reporters' bars, so `running` draws
//! nothing.

use std::sync::Arc;

use crate::reporting::Stages;
use crate::running::pool::{self, Event, Jobs, PoolOptions, Stop};

/// The worker pool as every stage uses it: a progress bar per stage on a terminal, the outputs
/// in job order, and [`Stop::Cancelled`] after Ctrl-C.
pub struct Pool {
    options: PoolOptions,
    stages: Stages,
}

impl Pool {
    /// A pool of `options`, drawing its stages' bars through `stages`.
    pub fn new(options: PoolOptions, stages: Stages) -> Pool {
        Pool { options, stages }
    }

    /// What its runs are made with (the workers, fail-fast, the cancel token).
    pub fn options(&self) -> &PoolOptions {
        &self.options
    }

    /// This pool with fail-fast on: a stage starts no job after one fails.
    pub fn failing_fast(&self) -> Pool {
        let options = PoolOptions {
            fail_fast: true,
            ..self.options.clone()
        };
        Pool::new(options, self.stages.clone())
    }

    /// The outputs of `count` jobs, in job order.
    pub fn run<J: Jobs>(
        &self,
        jobs: Arc<J>,
        count: usize,
        what: &str,
    ) -> Result<Vec<Option<J::Output>>, Stop> {
        let mut outputs = Vec::with_capacity(count);
        self.run_each(jobs, count, what, |_, output| outputs.push(output))?;
        Ok(outputs)
    }

    /// Runs `count` jobs, handing each output to `each` with its index, in job order, as soon
    /// as its turn comes (`None` for a job not run).
    pub fn run_each<J: Jobs>(
        &self,
        jobs: Arc<J>,
        count: usize,
        what: &str,
        mut each: impl FnMut(usize, Option<J::Output>),
    ) -> Result<(), Stop> {
        let bar = self.stages.start(what, count);
        let mut next = 0;
        let ran = pool::run_all(jobs, count, &self.options, |event| {
            if let Event::Finished(output) = event {
                bar.inc(1);
                each(next, output);
                next += 1;
            }
        });
        self.stages.end();
        ran
    }
}
