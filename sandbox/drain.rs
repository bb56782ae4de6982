//! Reading a running program's stdout and stderr and the supervisor's report pipe, all at once
//! with poll(2), so no pipe ever fills up and blocks the program; stops at the wall-clock
//! deadline or when stdout passes the output limit.

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use crate::sys::errno;

/// How much of stderr is kept; the rest is read and dropped.
pub(crate) const STDERR_KEEP: usize = 8 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The supervisor exited (its report pipe closed): the program is over.
    Finished,
    Deadline,
    OutputLimit,
}

pub(crate) struct Streams {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub report: Vec<u8>,
    pub stdout_total: u64,
    out: Option<OwnedFd>,
    err: Option<OwnedFd>,
    rep: Option<OwnedFd>,
    output_limit: u64,
}

enum Which {
    Out,
    Err,
    Rep,
}

impl Streams {
    pub(crate) fn new(out: OwnedFd, err: OwnedFd, rep: OwnedFd, output_limit: u64) -> Streams {
        Streams {
            stdout: Vec::new(),
            stderr: Vec::new(),
            report: Vec::new(),
            stdout_total: 0,
            out: Some(out),
            err: Some(err),
            rep: Some(rep),
            output_limit,
        }
    }

    /// Reads until the supervisor exits, the deadline passes or stdout exceeds the limit.
    pub(crate) fn collect(&mut self, deadline: Instant) -> Stop {
        loop {
            if self.rep.is_none() {
                return Stop::Finished;
            }
            if self.stdout_total > self.output_limit {
                return Stop::OutputLimit;
            }
            let now = Instant::now();
            if now >= deadline {
                return Stop::Deadline;
            }
            self.poll_once(millis_until(deadline - now));
        }
    }

    /// After everything was killed: reads what is left until both pipes close, for at most
    /// `grace` (a descendant that escaped containment could hold them open forever).
    pub(crate) fn finish(&mut self, grace: Duration) {
        let until = Instant::now() + grace;
        while self.out.is_some() || self.err.is_some() || self.rep.is_some() {
            let now = Instant::now();
            if now >= until {
                break;
            }
            self.poll_once(millis_until(until - now));
        }
        self.out = None;
        self.err = None;
        self.rep = None;
    }

    fn poll_once(&mut self, timeout_ms: i32) {
        let mut fds = [libc::pollfd {
            fd: -1,
            events: libc::POLLIN,
            revents: 0,
        }; 3];
        for (slot, fd) in fds.iter_mut().zip([&self.out, &self.err, &self.rep]) {
            slot.fd = fd.as_ref().map_or(-1, |f| f.as_raw_fd());
        }
        // SAFETY: fds is a valid array of 3 pollfd; negative fds are ignored by poll.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 3, timeout_ms) };
        if ready <= 0 {
            return;
        }
        for (which, slot) in [Which::Out, Which::Err, Which::Rep].into_iter().zip(fds) {
            if slot.fd >= 0 && slot.revents != 0 {
                self.read_some(which, slot.fd);
            }
        }
    }

    fn read_some(&mut self, which: Which, fd: RawFd) {
        let mut buf = [0u8; 64 * 1024];
        // SAFETY: buf is a writable buffer of the given length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && matches!(errno(), libc::EINTR | libc::EAGAIN) {
            return;
        }
        if n <= 0 {
            match which {
                Which::Out => self.out = None,
                Which::Err => self.err = None,
                Which::Rep => self.rep = None,
            }
            return;
        }
        let data = &buf[..n as usize];
        match which {
            Which::Out => {
                self.stdout_total += data.len() as u64;
                let room = (self.output_limit as usize).saturating_sub(self.stdout.len());
                self.stdout.extend_from_slice(&data[..data.len().min(room)]);
            }
            Which::Err => {
                let room = STDERR_KEEP.saturating_sub(self.stderr.len());
                self.stderr.extend_from_slice(&data[..data.len().min(room)]);
            }
            Which::Rep => self.report.extend_from_slice(data),
        }
    }
}

fn millis_until(d: Duration) -> i32 {
    // Round up so we never wake just before the deadline and spin.
    d.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32
}
