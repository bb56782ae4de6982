//! In-process running of built-in solvers, robust against solvers that misbehave.
//!
//! Solvers get a 256 MiB stack, as judges allow. A panic becomes a failure with its message and
//! location. A solver's time is its thread's CPU time (the verdict's clock, as for programs),
//! with the wall clock as the backstop for one that blocks. A solver that overruns a limit
//! cannot be stopped (threads cannot be killed), so the thread it runs on is abandoned: the case
//! gets TLE and the run finishes. The abandoned thread keeps its core busy until the process
//! exits; `--isolate` runs solvers as killable processes instead.
//!
//! Two ways to get there:
//! - [`run_watched`]: on the calling thread, which must have a solver-sized stack and someone
//!   watching its [`SolveWatch`] (the workers of [`super::pool`]): the watcher reports an overdue
//!   solver and never waits for that thread again. No handoff per case: on a small VM a handoff to
//!   another thread and back costs about as much as judging a tiny case (BENCHMARKS.md).
//! - [`run_in_process`]: the calling thread hands the solve to a solver thread of its own and
//!   watches it the same way; after an overrun it abandons that solver thread and starts a fresh
//!   one next time.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use grundy_problems::SolveFn;
use grundy_sandbox::ThreadClock;

use super::run::{Failure, Run, TimeLimits};
use grundy_sandbox::Clock;

const SOLVER_THREAD: &str = "grundy-solver";
/// The stack every solver gets.
pub const SOLVER_STACK: usize = 256 << 20;

struct Job {
    solve: SolveFn,
    input: Vec<u8>,
}

struct Finished {
    output: Vec<u8>,
    cpu: Duration,
    wall: Duration,
    failure: Option<Failure>,
}

/// A solver thread and the channels to it; dropped (and so abandoned) after a timeout.
struct SolverThread {
    jobs: Sender<(Job, TimeLimits)>,
    finished: Receiver<Finished>,
    watch: Arc<SolveWatch>,
}

thread_local! {
    static SOLVER: RefCell<Option<SolverThread>> = const { RefCell::new(None) };
    /// Set while a solver runs on this thread: its panics are captured, not printed.
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Routes panics of running solvers into their case's result instead of stderr; other code keeps
/// the default report. Call once at start-up.
pub fn install_panic_hook() {
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if CAPTURING.get() {
            let location = info.location().map(|l| l.to_string());
            PANIC_LOCATION.with(|slot| *slot.borrow_mut() = location);
        } else {
            default_hook(info);
        }
    }));
}

/// Runs `solve` on the calling thread, without a time limit: for `grundy solve`, whose process
/// limits (stack included) are set by whoever started it.
pub fn run_on_this_thread(solve: SolveFn, input: Vec<u8>) -> Run {
    let finished = solve_one(Job { solve, input }, CpuStart::now());
    Run {
        output: finished.output,
        cpu: finished.cpu,
        wall: finished.wall,
        failure: finished.failure,
        ..Run::default()
    }
}

/// The limits of the solver running on one thread, for the thread that watches it: its wall
/// deadline, and its thread's CPU clock with the CPU time it may use.
pub struct SolveWatch {
    base: Instant,
    /// Nanoseconds after `base` at which the running solver started.
    started: AtomicU64,
    /// Nanoseconds after `base` at which the running solver's wall-clock limit ends; 0 while no
    /// solver runs.
    deadline: AtomicU64,
    /// The CPU clock of the thread running the solver, its reading at the start, and the limit.
    clock: Mutex<ThreadClock>,
    cpu_started: AtomicU64,
    cpu_limit: AtomicU64,
}

/// How long a watched solver has run, by both clocks, and which limit it passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    pub by: Clock,
    pub cpu: Duration,
    pub wall: Duration,
}

impl SolveWatch {
    pub fn new() -> Arc<SolveWatch> {
        Arc::new(SolveWatch {
            base: Instant::now(),
            started: AtomicU64::new(0),
            deadline: AtomicU64::new(0),
            clock: Mutex::new(ThreadClock::current()),
            cpu_started: AtomicU64::new(0),
            cpu_limit: AtomicU64::new(u64::MAX),
        })
    }

    /// Whether a solver is running and past a limit: which, and how long it has run.
    pub fn overdue(&self) -> Option<Overrun> {
        let deadline = self.deadline.load(Ordering::SeqCst);
        if deadline == 0 {
            return None;
        }
        let now = self.nanos(Instant::now());
        if now > deadline {
            return Some(Overrun {
                by: Clock::Wall,
                ..self.running_for()
            });
        }
        // One thread's CPU time cannot outgrow the wall time it has run, so until that reaches
        // the CPU limit there is nothing to read: reading another thread's CPU clock is a system
        // call, and a watcher looks many times per tiny case.
        let cpu_limit = self.cpu_limit.load(Ordering::SeqCst);
        if now.saturating_sub(self.started.load(Ordering::SeqCst)) <= cpu_limit {
            return None;
        }
        let ran = self.running_for();
        (ran.cpu.as_nanos() > u128::from(cpu_limit)).then_some(ran)
    }

    /// How long the running (or last) solver has run, by both clocks (`by` is the CPU clock).
    pub fn running_for(&self) -> Overrun {
        let started = self.started.load(Ordering::SeqCst);
        let clock = *self.clock.lock().unwrap_or_else(|e| e.into_inner());
        let cpu_now = nanos(clock.now());
        Overrun {
            by: Clock::Cpu,
            cpu: Duration::from_nanos(
                cpu_now.saturating_sub(self.cpu_started.load(Ordering::SeqCst)),
            ),
            wall: Duration::from_nanos(self.nanos(Instant::now()).saturating_sub(started)),
        }
    }

    fn nanos(&self, at: Instant) -> u64 {
        let since = at.saturating_duration_since(self.base).as_nanos();
        u64::try_from(since).unwrap_or(u64::MAX)
    }

    /// Runs `work` on this thread with its limits published, so a watcher sees it overdue.
    pub fn during<T>(&self, limits: TimeLimits, work: impl FnOnce() -> T) -> T {
        self.during_from(limits, |_| work())
    }

    /// [`SolveWatch::during`], handing `work` the thread's CPU clock as read at the start, so it
    /// measures itself without reading it again (a system call per read).
    fn during_from<T>(&self, limits: TimeLimits, work: impl FnOnce(CpuStart) -> T) -> T {
        let clock = ThreadClock::current();
        *self.clock.lock().unwrap_or_else(|e| e.into_inner()) = clock;
        let cpu_before = clock.now();
        self.cpu_started.store(nanos(cpu_before), Ordering::SeqCst);
        self.cpu_limit.store(nanos(limits.cpu), Ordering::SeqCst);
        let start = self.nanos(Instant::now());
        self.started.store(start, Ordering::SeqCst);
        self.deadline.store(
            start.saturating_add(nanos(limits.wall)).max(1),
            Ordering::SeqCst,
        );
        let done = work(CpuStart { clock, cpu_before });
        self.deadline.store(0, Ordering::SeqCst);
        done
    }
}

/// Runs `solve` on `input` right on this thread, publishing its limits in `watch`. The caller
/// provides what a solver thread would: a stack of [`SOLVER_STACK`] bytes, and a watcher that,
/// once [`SolveWatch::overdue`], reports the case TLE and never waits for this thread again.
pub fn run_watched(solve: SolveFn, input: Vec<u8>, limits: TimeLimits, watch: &SolveWatch) -> Run {
    let finished = watch.during_from(limits, |start| solve_one(Job { solve, input }, start));
    finished_run(finished, limits)
}

/// How often [`run_in_process`] looks at its solver thread's clocks.
const LOOK_EVERY: Duration = Duration::from_millis(5);

/// Runs `solve` on `input` under `limits` on this thread's solver thread, watching it.
pub fn run_in_process(solve: SolveFn, input: Vec<u8>, limits: TimeLimits) -> Run {
    let reply = SOLVER.with(|slot| {
        let mut slot = slot.borrow_mut();
        let mut job = Job { solve, input };
        loop {
            let solver = slot.get_or_insert_with(spawn_solver_thread);
            match solver.jobs.send((job, limits)) {
                Ok(()) => break,
                // The thread is gone (it cannot be, short of an abort); start another.
                Err(mpsc::SendError((returned, _))) => {
                    job = returned;
                    *slot = None;
                }
            }
        }
        let solver = slot.as_ref().expect("a solver thread was just started");
        let reply = loop {
            match solver.finished.recv_timeout(LOOK_EVERY) {
                Ok(finished) => break Ok(finished),
                Err(RecvTimeoutError::Timeout) => match solver.watch.overdue() {
                    Some(overrun) => break Err(overrun),
                    None => continue,
                },
                Err(RecvTimeoutError::Disconnected) => break Err(solver.watch.running_for()),
            }
        };
        if reply.is_err() {
            *slot = None;
        }
        reply
    });
    match reply {
        Ok(finished) => finished_run(finished, limits),
        Err(overrun) => overrun_run(overrun),
    }
}

/// The run of a solver reported past a limit while it still ran.
pub fn overrun_run(overrun: Overrun) -> Run {
    Run {
        cpu: overrun.cpu,
        wall: overrun.wall,
        failure: Some(Failure::TimeLimit(overrun.by)),
        ..Run::default()
    }
}

/// A solver that finished, late or not: over the CPU limit, or else over the wall limit, is TLE.
fn finished_run(finished: Finished, limits: TimeLimits) -> Run {
    let late = if finished.cpu > limits.cpu {
        Some(Failure::TimeLimit(Clock::Cpu))
    } else if finished.wall > limits.wall {
        Some(Failure::TimeLimit(Clock::Wall))
    } else {
        None
    };
    Run {
        failure: finished.failure.or(late),
        output: finished.output,
        cpu: finished.cpu,
        wall: finished.wall,
        ..Run::default()
    }
}

/// A duration in whole nanoseconds, saturating.
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn spawn_solver_thread() -> SolverThread {
    let (jobs, job_queue) = mpsc::channel::<(Job, TimeLimits)>();
    let (done, finished) = mpsc::channel();
    let watch = SolveWatch::new();
    let watching = Arc::clone(&watch);
    thread::Builder::new()
        .name(SOLVER_THREAD.into())
        .stack_size(SOLVER_STACK)
        .spawn(move || {
            for (job, limits) in job_queue {
                if done
                    .send(watching.during_from(limits, |start| solve_one(job, start)))
                    .is_err()
                {
                    break;
                }
            }
        })
        .expect("the OS refused to start a solver thread");
    SolverThread {
        jobs,
        finished,
        watch,
    }
}

/// This thread's CPU clock and its reading when a solve started.
struct CpuStart {
    clock: ThreadClock,
    cpu_before: Duration,
}

impl CpuStart {
    fn now() -> CpuStart {
        let clock = ThreadClock::current();
        CpuStart {
            clock,
            cpu_before: clock.now(),
        }
    }
}

fn solve_one(job: Job, start: CpuStart) -> Finished {
    let mut output = Vec::new();
    let started = Instant::now();
    let result = catching_panics(|| (job.solve)(&job.input, &mut output));
    let wall = started.elapsed();
    let cpu = start.clock.now().saturating_sub(start.cpu_before);
    let failure = match result {
        Ok(Ok(())) => None,
        Ok(Err(input_error)) => Some(Failure::RejectedInput(input_error.to_string())),
        Err(panic) => Some(panic),
    };
    Finished {
        output,
        cpu,
        wall,
        failure,
    }
}

/// Runs built-in code (a solver, a player, a judge) on this thread; a panic comes back as
/// [`Failure::Panicked`] with its message and location instead of being printed.
pub fn catching_panics<T>(work: impl FnOnce() -> T) -> Result<T, Failure> {
    // Restored, not cleared: a built-in player runs nested in its judge's call.
    let outer = CAPTURING.replace(true);
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    CAPTURING.set(outer);
    result.map_err(|payload| {
        let location = PANIC_LOCATION.with(|slot| slot.borrow_mut().take());
        Failure::Panicked(panic_message(&*payload, location))
    })
}

fn panic_message(payload: &(dyn Any + Send), location: Option<String>) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    match location {
        Some(location) => format!("panicked at {location}: {message}"),
        None => format!("panicked: {message}"),
    }
}

#[cfg(test)]
#[path = "in_process_tests.rs"]
mod tests;
