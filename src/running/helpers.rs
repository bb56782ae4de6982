//! Threads that wait beside a worker for a contained program's run (the two processes of an
//! interactive case), kept for the next case: starting and ending a thread per run cost a
//! tenth of a tiny interactive case (the stack's mapping and the TLB flush on the other cores
//! when it goes).

use std::io;
use std::sync::mpsc::{self, SendError, Sender, TryRecvError};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

type Task = Box<dyn FnOnce() + Send>;

/// Idle helpers, each waiting on a channel of its own. Tasks are sent with this lock held, and a
/// helper leaves only with it held: no task can reach a helper that is gone.
static IDLE: Mutex<Vec<Sender<Task>>> = Mutex::new(Vec::new());

/// How long an idle helper waits for another task before it ends.
const KEEP_FOR: Duration = Duration::from_secs(2);

fn idle() -> MutexGuard<'static, Vec<Sender<Task>>> {
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `task` on an idle helper, or on a new one.
pub fn spawn(task: impl FnOnce() + Send + 'static) -> io::Result<()> {
    let mut task: Task = Box::new(task);
    {
        let mut idle = idle();
        while let Some(helper) = idle.pop() {
            match helper.send(task) {
                Ok(()) => return Ok(()),
                // A helper that left (idle too long) after its sender was listed: try the next.
                Err(SendError(back)) => task = back,
            }
        }
    }
    thread::Builder::new()
        .name("grundy-helper".into())
        .spawn(move || serve(task))
        .map(drop)
}

fn serve(mut task: Task) {
    loop {
        task();
        let (give, tasks) = mpsc::channel();
        idle().push(give);
        task = match tasks.recv_timeout(KEEP_FOR) {
            Ok(next) => next,
            Err(_) => {
                let idle = idle();
                match tasks.try_recv() {
                    Ok(next) => next,
                    // Leaving with the lock held: our sender now fails, and the task comes back.
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => {
                        drop(tasks);
                        drop(idle);
                        return;
                    }
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_run_and_helpers_are_reused() {
        let (done, finished) = mpsc::channel();
        for round in 0..20 {
            let done = done.clone();
            spawn(move || done.send((round, thread::current().id())).unwrap()).unwrap();
            // One at a time: each task finds the helper the last one left idle.
            let (got, _) = finished.recv_timeout(Duration::from_secs(10)).unwrap();
            assert_eq!(got, round);
        }
        // Other tests may use helpers at the same time; this one's twenty tasks still ran on
        // far fewer threads than twenty. A task's message can arrive before its helper is back
        // on the idle list, so each next task waits for that (a busy machine made the race).
        let threads: std::collections::HashSet<_> = (0..20)
            .map(|round| {
                let done = done.clone();
                spawn(move || done.send((round, thread::current().id())).unwrap()).unwrap();
                let ran_on = finished.recv_timeout(Duration::from_secs(10)).unwrap().1;
                let waiting_since = std::time::Instant::now();
                while idle().is_empty() && waiting_since.elapsed() < Duration::from_secs(1) {
                    thread::sleep(Duration::from_millis(1));
                }
                ran_on
            })
            .collect();
        assert!(threads.len() < 5, "{} threads for 20 tasks", threads.len());
    }

    #[test]
    fn tasks_at_once_each_get_a_helper() {
        let (done, finished) = mpsc::channel();
        let gate = std::sync::Arc::new(std::sync::Barrier::new(4));
        for _ in 0..4 {
            let (done, gate) = (done.clone(), std::sync::Arc::clone(&gate));
            // Each waits for the others: they can only all finish on four threads.
            spawn(move || {
                gate.wait();
                done.send(()).unwrap();
            })
            .unwrap();
        }
        for _ in 0..4 {
            finished.recv_timeout(Duration::from_secs(10)).unwrap();
        }
    }
}
