//! In-process running of built-in solvers, robust against solvers that misbehave.
//!
//! Solvers get a 256 MiB stack, as judges allow. A panic becomes a failure with its message and
//! location. A solver that overruns the time limit cannot be stopped (threads cannot be killed),
//! so the thread it runs on is abandoned: the case gets TLE and the run finishes. The abandoned
//! thread keeps its core busy until the process exits; `--isolate` runs solvers as killable
//! processes instead.
//!
//! Two ways to get there:
//! - [`run_watched`]: on the calling thread, which must have a solver-sized stack and someone
//!   watching its [`SolveWatch`] (the workers of [`super::pool`]): the watcher reports an overdue
//!   solver and never waits for that thread again. No handoff per case: on a small VM a handoff to
//!   another thread and back costs about as much as judging a tiny case (BENCHMARKS.md).
//! - [`run_in_process`]: the calling thread hands the solve to a solver thread of its own and
//!   waits at most the time limit; after a timeout it abandons that solver thread and starts a
//!   fresh one next time.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use grundy_problems::SolveFn;

use super::{Failure, Run};

const SOLVER_THREAD: &str = "grundy-solver";
/// The stack every solver gets.
pub const SOLVER_STACK: usize = 256 << 20;

struct Job {
    solve: SolveFn,
    input: Vec<u8>,
}

struct Finished {
    output: Vec<u8>,
    time: Duration,
    failure: Option<Failure>,
}

/// A solver thread and the channels to it; dropped (and so abandoned) after a timeout.
struct SolverThread {
    jobs: Sender<Job>,
    finished: Receiver<Finished>,
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
    let finished = solve_one(Job { solve, input });
    Run {
        output: finished.output,
        time: finished.time,
        failure: finished.failure,
        ..Run::default()
    }
}

/// The deadline of the solver running inline on one thread, for the thread that watches it.
pub struct SolveWatch {
    base: Instant,
    /// Nanoseconds after `base` at which the running solver started.
    started: AtomicU64,
    /// Nanoseconds after `base` at which the running solver's time limit ends; 0 while no solver
    /// runs.
    deadline: AtomicU64,
}

impl SolveWatch {
    pub fn new() -> Arc<SolveWatch> {
        Arc::new(SolveWatch {
            base: Instant::now(),
            started: AtomicU64::new(0),
            deadline: AtomicU64::new(0),
        })
    }

    /// Whether a solver is running and past its time limit.
    pub fn overdue(&self) -> bool {
        let deadline = self.deadline.load(Ordering::SeqCst);
        deadline != 0 && self.nanos(Instant::now()) > deadline
    }

    /// How long the running (or last) solver has run.
    pub fn running_for(&self) -> Duration {
        let started = self.started.load(Ordering::SeqCst);
        Duration::from_nanos(self.nanos(Instant::now()).saturating_sub(started))
    }

    fn nanos(&self, at: Instant) -> u64 {
        let since = at.saturating_duration_since(self.base).as_nanos();
        u64::try_from(since).unwrap_or(u64::MAX)
    }

    /// Runs `work` on this thread with its deadline `limit` from now published, so a watcher
    /// sees it overdue.
    pub fn during<T>(&self, limit: Duration, work: impl FnOnce() -> T) -> T {
        let limit = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        let start = self.nanos(Instant::now());
        self.started.store(start, Ordering::SeqCst);
        self.deadline
            .store(start.saturating_add(limit).max(1), Ordering::SeqCst);
        let done = work();
        self.deadline.store(0, Ordering::SeqCst);
        done
    }
}

/// Runs `solve` on `input` right on this thread, publishing its deadline in `watch`. The caller
/// provides what a solver thread would: a stack of [`SOLVER_STACK`] bytes, and a watcher that,
/// once [`SolveWatch::overdue`], reports the case TLE and never waits for this thread again.
pub fn run_watched(
    solve: SolveFn,
    input: Vec<u8>,
    time_limit: Duration,
    watch: &SolveWatch,
) -> Run {
    let finished = watch.during(time_limit, || solve_one(Job { solve, input }));
    finished_run(finished, time_limit)
}

/// Runs `solve` on `input` with a time limit on this thread's solver thread.
pub fn run_in_process(solve: SolveFn, input: Vec<u8>, time_limit: Duration) -> Run {
    let started = Instant::now();
    let reply = SOLVER.with(|slot| {
        let mut slot = slot.borrow_mut();
        let mut job = Job { solve, input };
        loop {
            let solver = slot.get_or_insert_with(spawn_solver_thread);
            match solver.jobs.send(job) {
                Ok(()) => break,
                // The thread is gone (it cannot be, short of an abort); start another.
                Err(mpsc::SendError(returned)) => {
                    job = returned;
                    *slot = None;
                }
            }
        }
        let solver = slot.as_ref().expect("a solver thread was just started");
        let reply = solver.finished.recv_timeout(time_limit);
        if reply.is_err() {
            *slot = None;
        }
        reply
    });
    match reply {
        Ok(finished) => finished_run(finished, time_limit),
        Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => Run {
            time: started.elapsed(),
            failure: Some(Failure::TimeLimit),
            ..Run::default()
        },
    }
}

/// A solver that finished, late or not.
fn finished_run(finished: Finished, time_limit: Duration) -> Run {
    Run {
        failure: finished
            .failure
            .or_else(|| (finished.time > time_limit).then_some(Failure::TimeLimit)),
        output: finished.output,
        time: finished.time,
        ..Run::default()
    }
}

fn spawn_solver_thread() -> SolverThread {
    let (jobs, job_queue) = mpsc::channel::<Job>();
    let (done, finished) = mpsc::channel();
    thread::Builder::new()
        .name(SOLVER_THREAD.into())
        .stack_size(SOLVER_STACK)
        .spawn(move || {
            for job in job_queue {
                if done.send(solve_one(job)).is_err() {
                    break;
                }
            }
        })
        .expect("the OS refused to start a solver thread");
    SolverThread { jobs, finished }
}

fn solve_one(job: Job) -> Finished {
    let mut output = Vec::new();
    let started = Instant::now();
    let result = catching_panics(|| (job.solve)(&job.input, &mut output));
    let time = started.elapsed();
    let failure = match result {
        Ok(Ok(())) => None,
        Ok(Err(input_error)) => Some(Failure::RejectedInput(input_error.to_string())),
        Err(panic) => Some(panic),
    };
    Finished {
        output,
        time,
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
mod tests {
    use super::*;
    use grundy_problems::InputError;

    fn echo(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
        out.extend_from_slice(input);
        Ok(())
    }

    fn panics(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
        panic!("boom {}", 42)
    }

    fn spins(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
        loop {
            thread::park();
        }
    }

    fn rejects(input: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
        Err(InputError::at(input, 2, "bad"))
    }

    fn deep(_: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
        // About 40 MiB of stack: fine on a judge's stack, fatal on the default 8 MiB.
        fn down(n: u32) -> u32 {
            let pad = std::hint::black_box([n as u8; 400]);
            if n == 0 {
                0
            } else {
                down(n - 1) + u32::from(pad[7] & 1)
            }
        }
        out.extend_from_slice(down(100_000).to_string().as_bytes());
        Ok(())
    }

    const LIMIT: Duration = Duration::from_secs(5);

    #[test]
    fn output_and_time_come_back() {
        let run = run_in_process(echo, b"7 8".to_vec(), LIMIT);
        assert_eq!(run.output, b"7 8");
        assert_eq!(run.failure, None);
    }

    #[test]
    fn panic_is_a_failure_with_message_and_location() {
        install_panic_hook();
        let run = run_in_process(panics, Vec::new(), LIMIT);
        let Some(Failure::Panicked(message)) = run.failure else {
            panic!("{:?}", run.failure)
        };
        assert!(message.contains("boom 42"), "{message}");
        assert!(message.contains("in_process.rs"), "{message}");
        // The same worker keeps serving.
        assert_eq!(run_in_process(echo, b"ok".to_vec(), LIMIT).output, b"ok");
    }

    #[test]
    fn stuck_solver_times_out_and_the_next_case_still_runs() {
        let run = run_in_process(spins, Vec::new(), Duration::from_millis(100));
        assert_eq!(run.failure, Some(Failure::TimeLimit));
        assert!(run.time >= Duration::from_millis(100));
        assert_eq!(
            run_in_process(echo, b"next".to_vec(), LIMIT).output,
            b"next"
        );
    }

    #[test]
    fn rejected_input_keeps_line_and_column() {
        let run = run_in_process(rejects, b"1\n2 3".to_vec(), LIMIT);
        assert_eq!(
            run.failure,
            Some(Failure::RejectedInput("line 2, column 1: bad".into()))
        );
    }

    /// Runs `body` on a thread set up as the pool's workers are: a solver stack.
    fn on_worker_thread<T: Send + 'static>(
        watch: &Arc<SolveWatch>,
        body: impl FnOnce(&SolveWatch) -> T + Send + 'static,
    ) -> thread::JoinHandle<T> {
        let watch = Arc::clone(watch);
        thread::Builder::new()
            .stack_size(SOLVER_STACK)
            .spawn(move || body(&watch))
            .unwrap()
    }

    #[test]
    fn watched_runs_give_the_same_results_and_watch_nothing_between_solves() {
        install_panic_hook();
        let watch = SolveWatch::new();
        let runs = on_worker_thread(&watch, |watch| {
            let echo = run_watched(echo, b"7 8".to_vec(), LIMIT, watch);
            let panic = run_watched(panics, Vec::new(), LIMIT, watch);
            let rejected = run_watched(rejects, b"1\n2 3".to_vec(), LIMIT, watch);
            let deep = run_watched(deep, Vec::new(), Duration::from_secs(30), watch);
            [echo, panic, rejected, deep]
        })
        .join()
        .unwrap();
        let [echo, panic, rejected, deep] = runs;
        assert_eq!((echo.output, echo.failure), (b"7 8".to_vec(), None));
        assert!(matches!(panic.failure, Some(Failure::Panicked(m)) if m.contains("boom 42")));
        assert_eq!(
            rejected.failure,
            Some(Failure::RejectedInput("line 2, column 1: bad".into()))
        );
        assert_eq!((deep.output, deep.failure), (b"50000".to_vec(), None));
        assert!(!watch.overdue());
    }

    #[test]
    fn a_watched_solver_past_its_limit_shows_as_overdue() {
        let watch = SolveWatch::new();
        let _abandoned = on_worker_thread(&watch, |watch| {
            run_watched(spins, Vec::new(), Duration::from_millis(50), watch)
        });
        let started = Instant::now();
        while !watch.overdue() {
            assert!(started.elapsed() < Duration::from_secs(60), "never overdue");
            thread::sleep(Duration::from_millis(5));
        }
        assert!(started.elapsed() >= Duration::from_millis(50));
    }

    #[test]
    fn solvers_get_a_large_stack() {
        let run = run_in_process(deep, Vec::new(), Duration::from_secs(30));
        assert_eq!(run.failure, None);
        assert_eq!(run.output, b"50000");
    }
}
