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

use super::{Clock, Failure, Run, TimeLimits};

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

    const LIMIT: TimeLimits = TimeLimits {
        cpu: Duration::from_secs(5),
        wall: Duration::from_secs(11),
    };

    /// Limits whose CPU limit a computing solver reaches long before the wall-clock one, even
    /// on a machine busy enough to give it a small share of a core.
    const SHORT: TimeLimits = TimeLimits {
        cpu: Duration::from_millis(100),
        wall: Duration::from_secs(60),
    };

    /// Limits that stop a blocked solver soon.
    const BLOCKED: TimeLimits = TimeLimits {
        cpu: Duration::from_millis(100),
        wall: Duration::from_millis(1000),
    };

    /// Computes without end (for a few seconds: then the abandoned thread frees its core).
    fn computes(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(3) {
            std::hint::spin_loop();
        }
        Ok(())
    }

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
    fn a_blocked_solver_is_stopped_by_the_wall_clock_and_the_next_case_still_runs() {
        let run = run_in_process(spins, Vec::new(), BLOCKED);
        assert_eq!(run.failure, Some(Failure::TimeLimit(Clock::Wall)));
        assert!(run.wall >= BLOCKED.wall, "{run:?}");
        assert!(
            run.cpu < BLOCKED.cpu,
            "parked, it computed nothing: {run:?}"
        );
        assert_eq!(
            run_in_process(echo, b"next".to_vec(), LIMIT).output,
            b"next"
        );
    }

    #[test]
    fn a_computing_solver_is_stopped_by_its_cpu_time() {
        let run = run_in_process(computes, Vec::new(), SHORT);
        assert_eq!(run.failure, Some(Failure::TimeLimit(Clock::Cpu)), "{run:?}");
        assert!(run.cpu > SHORT.cpu, "{run:?}");
        assert_eq!(run.time(), run.cpu);
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
            let deep = run_watched(
                deep,
                Vec::new(),
                TimeLimits::cpu(Duration::from_secs(30)),
                watch,
            );
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
        assert_eq!(watch.overdue(), None);
    }

    #[test]
    fn a_watched_solver_past_a_limit_shows_as_overdue_by_that_limit() {
        let cases = [
            (spins as SolveFn, BLOCKED, Clock::Wall),
            (computes, SHORT, Clock::Cpu),
        ];
        for (solve, limits, by) in cases {
            let watch = SolveWatch::new();
            let _abandoned = on_worker_thread(&watch, move |watch| {
                run_watched(solve, Vec::new(), limits, watch)
            });
            let started = Instant::now();
            let overrun = loop {
                if let Some(overrun) = watch.overdue() {
                    break overrun;
                }
                assert!(started.elapsed() < Duration::from_secs(60), "never overdue");
                thread::sleep(Duration::from_millis(5));
            };
            assert_eq!(overrun.by, by, "{overrun:?}");
            match by {
                Clock::Cpu => assert!(overrun.cpu > limits.cpu, "{overrun:?}"),
                Clock::Wall => assert!(overrun.wall > limits.wall, "{overrun:?}"),
            }
        }
    }

    #[test]
    fn solvers_get_a_large_stack() {
        let run = run_in_process(deep, Vec::new(), TimeLimits::cpu(Duration::from_secs(30)));
        assert_eq!(run.failure, None);
        assert_eq!(run.output, b"50000");
    }
}
