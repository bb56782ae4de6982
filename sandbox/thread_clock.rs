//! The CPU-time clock of one thread of the calling process, for built-in code judged on a thread
//! (grundy's in-process solvers): read by the thread itself for its run's time, and by a
//! watching thread to see it pass its limit while it runs. The runner's crate has no unsafe
//! code, so the two libc calls live here.

use std::time::Duration;

/// The CPU-time clock of one thread, readable from any thread of the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadClock(libc::clockid_t);

impl ThreadClock {
    /// The calling thread's clock.
    pub fn current() -> ThreadClock {
        let mut clock: libc::clockid_t = libc::CLOCK_THREAD_CPUTIME_ID;
        // SAFETY: pthread_self is the calling thread; clock is a valid out-pointer. On failure
        // clock keeps CLOCK_THREAD_CPUTIME_ID, the caller's own clock.
        unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
        ThreadClock(clock)
    }

    /// The CPU time the thread has used; zero once the thread is gone.
    pub fn now(self) -> Duration {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: now is a valid out-pointer.
        if unsafe { libc::clock_gettime(self.0, &mut now) } != 0 {
            return Duration::ZERO;
        }
        Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_threads_clock_counts_its_work_not_ours() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            tx.send(ThreadClock::current()).unwrap();
            while stop_rx.try_recv().is_err() {
                std::hint::spin_loop();
            }
        });
        let clock = rx.recv().unwrap();
        let mine = ThreadClock::current();
        let mine_before = mine.now();
        while clock.now() < Duration::from_millis(50) {
            std::thread::sleep(Duration::from_millis(5));
        }
        stop_tx.send(()).unwrap();
        worker.join().unwrap();
        // We slept while it spun: it used far more CPU than we did meanwhile.
        assert!(mine.now() - mine_before < Duration::from_millis(50));
        assert_ne!(clock, mine);
    }
}
