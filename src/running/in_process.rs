//! In-process running of built-in solvers, robust against solvers that misbehave.
//!
//! Each rayon worker hands its cases to a solver thread of its own, with a 256 MiB stack as judges
//! allow. A panic becomes a failure with its message and location. A solver that overruns the time
//! limit cannot be stopped (threads cannot be killed), so its thread is abandoned: the case gets
//! TLE, the worker starts a fresh solver thread, and the run finishes. The abandoned thread keeps
//! its core busy until the process exits; `--isolate` runs solvers as killable processes instead.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use grundy_problems::SolveFn;

use super::{Failure, Run};

const SOLVER_THREAD: &str = "grundy-solver";
const SOLVER_STACK: usize = 256 << 20;

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
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Routes panics on solver threads into their case's result instead of stderr; other threads keep
/// the default report. Call once at start-up.
pub fn install_panic_hook() {
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if thread::current().name() == Some(SOLVER_THREAD) {
            let location = info.location().map(|l| l.to_string());
            PANIC_LOCATION.with(|slot| *slot.borrow_mut() = location);
        } else {
            default_hook(info);
        }
    }));
}

/// Runs `solve` on `input` with a time limit, on this thread's solver thread.
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
        Ok(finished) => Run {
            failure: finished
                .failure
                .or_else(|| (finished.time > time_limit).then_some(Failure::TimeLimit)),
            output: finished.output,
            stderr: Vec::new(),
            time: finished.time,
            peak_memory_bytes: None,
        },
        Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => Run {
            output: Vec::new(),
            stderr: Vec::new(),
            time: started.elapsed(),
            peak_memory_bytes: None,
            failure: Some(Failure::TimeLimit),
        },
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
    let result = panic::catch_unwind(AssertUnwindSafe(|| (job.solve)(&job.input, &mut output)));
    let time = started.elapsed();
    let failure = match result {
        Ok(Ok(())) => None,
        Ok(Err(input_error)) => Some(Failure::RejectedInput(input_error.to_string())),
        Err(payload) => {
            let location = PANIC_LOCATION.with(|slot| slot.borrow_mut().take());
            Some(Failure::Panicked(panic_message(&*payload, location)))
        }
    };
    Finished {
        output,
        time,
        failure,
    }
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

    #[test]
    fn solvers_get_a_large_stack() {
        let run = run_in_process(deep, Vec::new(), Duration::from_secs(30));
        assert_eq!(run.failure, None);
        assert_eq!(run.output, b"50000");
    }
}
