//! The worker pool that runs a list of jobs in parallel and hands their results back strictly in
//! list order, as soon as each one's turn comes: `check` judges its cases through it.
//!
//! Workers are threads with a solver-sized stack that take jobs in list order from a shared
//! counter, so results stream out nearly in order. A built-in solver runs right on the worker
//! (no handoff per job: on a small VM that costs as much as a tiny job), publishing its deadline
//! in the worker's [`SolveWatch`]. With [`run_with_watchdog`] the thread that collects results also
//! watches those deadlines (the watchdog): a solver cannot be stopped, so a job past its time
//! limit is reported through [`Watched::overdue`], its worker is abandoned (it keeps its core
//! busy until the process exits) and a new worker takes its place. [`run_all`] has no watchdog,
//! for jobs that run no built-in solver under a limit.
//!
//! Not for: judging, reporting or printing. The pool knows nothing about cases; the caller's
//! [`Jobs`] does the work and its event handler reports.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::Duration;

use anyhow::{Context, Result};

use super::in_process::{Overrun, SolveWatch, SOLVER_STACK};

/// The work a pool does: `count` jobs, numbered from 0.
pub trait Jobs: Send + Sync + 'static {
    type Output: Send + 'static;

    /// Does job `index` on the calling worker. A built-in solver run here must be given `watch`
    /// (see [`super::run_watched`]), so an overrun is seen. An error means the whole run is
    /// meaningless (a program that cannot start at all): no new job starts and the error is
    /// returned by [`run_all`].
    fn run(&self, index: usize, watch: &SolveWatch) -> Result<Self::Output>;

    /// Whether `output` is a failure, for `fail_fast`.
    fn failed(&self, output: &Self::Output) -> bool;
}

/// Jobs whose built-in solvers the watchdog of [`run_with_watchdog`] watches.
pub trait Watched: Jobs {
    /// The output of job `index`, whose watched solver ran past a limit (`overrun`).
    fn overdue(&self, index: usize, overrun: Overrun) -> Self::Output;
}

/// Why a run of jobs did not run to its end: a result its caller (and, up the stack, `main`)
/// decides by variant. Not an error type of its own, so it cannot be folded into an
/// `anyhow::Error` on the way up: every caller passes it on or handles it.
#[derive(Debug)]
pub enum Stop {
    /// Its cancel token was set (Ctrl-C, or a report that could not be written): what was
    /// reported stays, and the command ends with exit status 130.
    Cancelled,
    /// A job made the run meaningless (a program that cannot start), or the host failed.
    Failed(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Stop {
    fn from(error: E) -> Self {
        Stop::Failed(error.into())
    }
}

/// How the pool runs.
#[derive(Clone, Debug)]
pub struct PoolOptions {
    /// Worker threads (at least one is started).
    pub jobs: usize,
    /// Stop starting new jobs after the first failure.
    pub fail_fast: bool,
    /// Set from outside (Ctrl-C) to stop at once: jobs not started are skipped and the outputs
    /// of jobs in progress are dropped.
    pub cancel: Arc<AtomicBool>,
}

/// What the pool tells its caller. `Started(index)` comes in the order workers take jobs;
/// `Finished` comes for every job exactly once, in job order (0, 1, 2, ...), with `None` for a job
/// that was skipped (`fail_fast`, an error, a cancel).
#[derive(Debug)]
pub enum Event<T> {
    Started(usize),
    Finished(Option<T>),
}

/// How long the collecting thread naps between looks at the events: halved after a look that
/// found some, doubled after one that found none, within these bounds (the longest also bounds
/// how late an overdue solver is seen). Not shorter: on a suite of tiny cases, a wake-up every
/// 50 µs took a sixth of the run's CPU time from the workers on two cores (BENCHMARKS.md), and
/// a report a millisecond later is as prompt to a reader. A worker that finds no job left wakes
/// it at once, so a run does not end a nap late.
const SHORTEST_NAP: Duration = Duration::from_millis(1);
const LONGEST_NAP: Duration = Duration::from_millis(2);

/// Runs the `count` jobs of `jobs` and calls `on_event` on this thread. Returns
/// [`Stop::Cancelled`] when the cancel token was set by the end, else the error of a job that
/// made the run meaningless; a panic in a job (a bug) is raised again here.
pub fn run_all<J: Jobs>(
    jobs: Arc<J>,
    count: usize,
    options: &PoolOptions,
    on_event: impl FnMut(Event<J::Output>),
) -> Result<(), Stop> {
    run(jobs, count, options, None, on_event)
}

/// [`run_all`] with the watchdog: a job whose built-in solver runs past its limit is reported
/// through [`Watched::overdue`], and its worker replaced.
pub fn run_with_watchdog<J: Watched>(
    jobs: Arc<J>,
    count: usize,
    options: &PoolOptions,
    on_event: impl FnMut(Event<J::Output>),
) -> Result<(), Stop> {
    run(jobs, count, options, Some(J::overdue), on_event)
}

/// The output of an overdue job, for the watchdog.
type Overdue<J> = fn(&J, usize, Overrun) -> <J as Jobs>::Output;

fn run<J: Jobs>(
    jobs: Arc<J>,
    count: usize,
    options: &PoolOptions,
    overdue: Option<Overdue<J>>,
    mut on_event: impl FnMut(Event<J::Output>),
) -> Result<(), Stop> {
    let shared = Arc::new(Shared {
        jobs,
        count,
        fail_fast: options.fail_fast,
        cancel: Arc::clone(&options.cancel),
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        collector: thread::current(),
        fatal: Mutex::new(None),
        panicked: Mutex::new(None),
    });
    let (sender, events) = mpsc::channel::<WorkerEvent<J::Output>>();
    // More workers than jobs would only wait.
    let mut workers = (0..options.jobs.min(count).max(1))
        .map(|_| Worker::start(&shared, &sender))
        .collect::<Result<Vec<_>>>()?;
    let mut pending = InOrder::default();
    let mut nap = SHORTEST_NAP;
    while pending.next < count {
        // Napping and then taking every event at once, rather than blocking on the channel: a
        // blocked receiver makes every send (two per job) a futex wake and a context switch,
        // which on a small VM costs about as much as a tiny job.
        let mut batch = events.try_iter().peekable();
        if batch.peek().is_none() {
            // Woken early by a worker that found no job left: the last results are then in,
            // or about to be.
            thread::park_timeout(nap);
            nap = (nap * 2).min(LONGEST_NAP);
        } else {
            nap = (nap / 2).max(SHORTEST_NAP);
        }
        for event in batch {
            match event {
                WorkerEvent::Started(index) => on_event(Event::Started(index)),
                // The output of a job already reported overdue (a late solver) is dropped.
                WorkerEvent::Finished(index, output) => pending.put(index, output, false),
            }
        }
        for worker in workers.iter_mut().filter(|_| overdue.is_some()) {
            if let (Some((index, overrun)), Some(overdue)) = (worker.overdue_job(), overdue) {
                worker.abandoned.store(true, Ordering::SeqCst);
                let output = overdue(&shared.jobs, index, overrun);
                if shared.fail_fast && shared.jobs.failed(&output) {
                    shared.stop.store(true, Ordering::Relaxed);
                }
                pending.put(index, Some(output), true);
                *worker = Worker::start(&shared, &sender)?;
            }
        }
        while let Some(output) = pending.take_next() {
            on_event(Event::Finished(output));
        }
    }
    if let Some(payload) = shared.panicked.lock().expect("never poisoned").take() {
        panic::resume_unwind(payload);
    }
    // What a cancel cut short failed because of it (a program killed before it started).
    if options.cancel.load(Ordering::SeqCst) {
        return Err(Stop::Cancelled);
    }
    let fatal = shared.fatal.lock().expect("never poisoned").take();
    fatal.map_or(Ok(()), |error| Err(Stop::Failed(error)))
}

/// Outputs waiting for their turn: slot `i` holds job `next + i`'s (outer `None`: not in yet).
/// A queue, not a map by index: outputs are large, and taking the first of a sorted map moves
/// every one after it in its node.
struct InOrder<T> {
    next: usize,
    waiting: VecDeque<Option<Option<T>>>,
}

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        InOrder {
            next: 0,
            waiting: VecDeque::new(),
        }
    }
}

impl<T> InOrder<T> {
    /// Keeps job `index`'s output for its turn: over one already in with `replace` (an overdue
    /// job's verdict over whatever came first), else only in an empty slot; dropped when its
    /// turn is past (the late output of a job reported overdue).
    fn put(&mut self, index: usize, output: Option<T>, replace: bool) {
        let Some(at) = index.checked_sub(self.next) else {
            return;
        };
        if at >= self.waiting.len() {
            self.waiting.resize_with(at + 1, || None);
        }
        let slot = &mut self.waiting[at];
        if replace || slot.is_none() {
            *slot = Some(output);
        }
    }

    /// The next job's output, once it is in.
    fn take_next(&mut self) -> Option<Option<T>> {
        let output = self.waiting.front_mut()?.take()?;
        self.waiting.pop_front();
        self.next += 1;
        Some(output)
    }
}

/// What the workers share.
struct Shared<J: Jobs> {
    jobs: Arc<J>,
    count: usize,
    fail_fast: bool,
    cancel: Arc<AtomicBool>,
    /// The next job to take.
    next: AtomicUsize,
    /// No new job starts (`fail_fast`, an error, a cancel).
    stop: AtomicBool,
    /// The thread collecting the results, which naps between looks.
    collector: Thread,
    fatal: Mutex<Option<anyhow::Error>>,
    panicked: Mutex<Option<Box<dyn Any + Send>>>,
}

enum WorkerEvent<T> {
    Started(usize),
    Finished(usize, Option<T>),
}

/// A worker thread as the collecting thread sees it.
struct Worker {
    watch: Arc<SolveWatch>,
    /// The job the worker is on.
    job: Arc<AtomicUsize>,
    /// Set when its job was reported overdue without it; it then stops after that job.
    abandoned: Arc<AtomicBool>,
}

impl Worker {
    fn start<J: Jobs>(
        shared: &Arc<Shared<J>>,
        sender: &Sender<WorkerEvent<J::Output>>,
    ) -> Result<Worker> {
        let worker = Worker {
            watch: SolveWatch::new(),
            job: Arc::new(AtomicUsize::new(usize::MAX)),
            abandoned: Arc::new(AtomicBool::new(false)),
        };
        let (watch, job, abandoned) = (
            Arc::clone(&worker.watch),
            Arc::clone(&worker.job),
            Arc::clone(&worker.abandoned),
        );
        let (shared, sender) = (Arc::clone(shared), sender.clone());
        thread::Builder::new()
            .name("grundy-worker".into())
            .stack_size(SOLVER_STACK)
            .spawn(move || {
                while !abandoned.load(Ordering::SeqCst) {
                    let index = shared.next.fetch_add(1, Ordering::Relaxed);
                    if index >= shared.count {
                        // Its last result was sent: the collector need not finish its nap.
                        shared.collector.unpark();
                        break;
                    }
                    job.store(index, Ordering::SeqCst);
                    let output = shared.run(index, &watch, &sender);
                    if sender.send(WorkerEvent::Finished(index, output)).is_err() {
                        break;
                    }
                }
            })
            .context("cannot start a worker thread")?;
        Ok(worker)
    }

    /// The job whose solver is past a limit, if any, and by how much. The job is read before
    /// and after the limits, so a worker that moved on in between is not taken for overdue.
    fn overdue_job(&self) -> Option<(usize, Overrun)> {
        let before = self.job.load(Ordering::SeqCst);
        let overrun = self.watch.overdue()?;
        (self.job.load(Ordering::SeqCst) == before).then_some((before, overrun))
    }
}

impl<J: Jobs> Shared<J> {
    /// Runs job `index` on the calling worker; `None` when it is skipped or the run is over.
    fn run(
        &self,
        index: usize,
        watch: &SolveWatch,
        sender: &Sender<WorkerEvent<J::Output>>,
    ) -> Option<J::Output> {
        if self.stop.load(Ordering::Relaxed) || self.cancel.load(Ordering::SeqCst) {
            return None;
        }
        let _ = sender.send(WorkerEvent::Started(index));
        let ran = panic::catch_unwind(AssertUnwindSafe(|| self.jobs.run(index, watch)));
        if self.cancel.load(Ordering::SeqCst) {
            // Cut short from outside: the job has no outcome of its own.
            self.stop.store(true, Ordering::Relaxed);
            return None;
        }
        match ran {
            Ok(Ok(output)) => {
                if self.fail_fast && self.jobs.failed(&output) {
                    self.stop.store(true, Ordering::Relaxed);
                }
                Some(output)
            }
            Ok(Err(error)) => {
                self.stop.store(true, Ordering::Relaxed);
                self.fatal
                    .lock()
                    .expect("never poisoned")
                    .get_or_insert(error);
                None
            }
            Err(payload) => {
                self.stop.store(true, Ordering::Relaxed);
                self.panicked
                    .lock()
                    .expect("never poisoned")
                    .get_or_insert(payload);
                None
            }
        }
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
