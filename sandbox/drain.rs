//! The runner's side of a running program, all at once with poll(2): reading stdout and
//! stderr (so no pipe fills up and blocks the program), feeding stdin, and waiting for the
//! report (a pipe that closes when the plain supervisor exits, or one message from a box
//! keeper). Stops at the wall-clock deadline, when the run's CPU time passes its limit (looked at
//! through cpu_watch.rs), when stdout passes the output limit, or when the run is cancelled.

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use crate::cpu_watch::CpuWatch;
use crate::stdio::Feeder;
use crate::sys::errno;

/// How much of stderr is kept; the rest is read and dropped.
pub(crate) const STDERR_KEEP: usize = 8 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The report came: the program is over.
    Finished,
    /// The wall-clock backstop passed.
    Deadline,
    /// The run's processes together used more CPU time than their limit.
    CpuLimit,
    OutputLimit,
    Cancelled,
}

/// Where the report comes from.
pub(crate) enum ReportFrom {
    /// The plain supervisor's pipe: the report is everything read before it closes.
    Pipe(OwnedFd),
    /// A box keeper's control socket: the report is one message.
    Socket(RawFd),
}

pub(crate) struct Streams {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub report: Vec<u8>,
    pub stdout_total: u64,
    report_done: bool,
    out: Option<OwnedFd>,
    err: Option<OwnedFd>,
    from: Option<ReportFrom>,
    feeder: Option<Feeder>,
    cancel: Option<crate::Cancel>,
    output_limit: u64,
}

#[derive(Clone, Copy)]
enum Which {
    Out,
    Err,
    Report,
    Stdin,
    Cancel,
}

pub(crate) struct StreamsInput {
    pub out: Option<OwnedFd>,
    pub err: OwnedFd,
    pub report: ReportFrom,
    pub feeder: Option<Feeder>,
    pub cancel: Option<crate::Cancel>,
    pub output_limit: u64,
}

impl Streams {
    pub(crate) fn new(input: StreamsInput) -> Streams {
        Streams {
            stdout: Vec::new(),
            stderr: Vec::new(),
            report: Vec::new(),
            stdout_total: 0,
            report_done: false,
            out: input.out,
            err: Some(input.err),
            from: Some(input.report),
            feeder: input.feeder,
            cancel: input.cancel,
            output_limit: input.output_limit,
        }
    }

    /// Reads until the report comes, the deadline passes, `cpu` sees the CPU limit passed,
    /// stdout exceeds the limit or the run is cancelled.
    pub(crate) fn collect(&mut self, deadline: Instant, cpu: &mut CpuWatch) -> Stop {
        loop {
            if self.report_done {
                return Stop::Finished;
            }
            if self.stdout_total > self.output_limit {
                return Stop::OutputLimit;
            }
            if self.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
                return Stop::Cancelled;
            }
            let now = Instant::now();
            if now >= deadline {
                // One last look, so a run stopped by the wall clock that had also used its CPU
                // time says so even when its processes die with their box.
                cpu.look(now);
                return Stop::Deadline;
            }
            if now >= cpu.due() && cpu.look(now) {
                return Stop::CpuLimit;
            }
            self.poll_once(millis_until(deadline.min(cpu.due()) - now));
        }
    }

    /// Waits up to `grace` for the report (after a kill, the keeper or supervisor still
    /// sends or closes it). True if it came.
    pub(crate) fn await_report(&mut self, grace: Duration) -> bool {
        self.feeder = None;
        self.cancel = None;
        let until = Instant::now() + grace;
        while !self.report_done {
            let now = Instant::now();
            if now >= until {
                return false;
            }
            self.poll_once(millis_until(until - now));
        }
        true
    }

    /// After the program is over: reads what is left until both pipes close, for at most
    /// `grace` (a descendant that escaped containment could hold them open forever).
    pub(crate) fn finish(&mut self, grace: Duration) {
        self.feeder = None;
        self.cancel = None;
        self.from = None;
        let until = Instant::now() + grace;
        while self.out.is_some() || self.err.is_some() {
            let now = Instant::now();
            if now >= until {
                break;
            }
            self.poll_once(millis_until(until - now));
        }
        self.out = None;
        self.err = None;
    }

    fn poll_once(&mut self, timeout_ms: i32) {
        let idle = libc::pollfd {
            fd: -1,
            events: libc::POLLIN,
            revents: 0,
        };
        let mut fds = [idle; 5];
        let report_fd = match &self.from {
            _ if self.report_done => -1,
            Some(ReportFrom::Pipe(fd)) => fd.as_raw_fd(),
            Some(ReportFrom::Socket(fd)) => *fd,
            None => -1,
        };
        let cancel = self.cancel.as_ref();
        let sources = [
            (Which::Out, self.out.as_ref().map_or(-1, |f| f.as_raw_fd())),
            (Which::Err, self.err.as_ref().map_or(-1, |f| f.as_raw_fd())),
            (Which::Report, report_fd),
            (Which::Stdin, self.feeder.as_ref().map_or(-1, |f| f.fd())),
            (
                Which::Cancel,
                cancel.and_then(|c| c.wake_fd()).unwrap_or(-1),
            ),
        ];
        for (slot, (which, fd)) in fds.iter_mut().zip(sources) {
            slot.fd = fd;
            if matches!(which, Which::Stdin) {
                slot.events = libc::POLLOUT;
            }
        }
        // Without an eventfd a cancel token is checked every few milliseconds.
        let timeout_ms = match cancel {
            Some(c) if c.wake_fd().is_none() => timeout_ms.min(5),
            _ => timeout_ms,
        };
        // SAFETY: fds is a valid array of pollfd; negative fds are ignored by poll.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
        if ready <= 0 {
            return;
        }
        for ((which, _), slot) in sources.into_iter().zip(fds) {
            if slot.fd >= 0 && slot.revents != 0 {
                self.on_ready(which, slot.fd);
            }
        }
    }

    fn on_ready(&mut self, which: Which, fd: RawFd) {
        match which {
            Which::Stdin => {
                if self.feeder.as_mut().is_some_and(|f| f.feed()) {
                    self.feeder = None; // all fed, or the program stopped reading
                }
                return;
            }
            Which::Cancel => return, // collect() sees the flag
            _ => {}
        }
        let mut buf = [0u8; 64 * 1024];
        // SAFETY: buf is a writable buffer of the given length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && matches!(errno(), libc::EINTR | libc::EAGAIN) {
            return;
        }
        let data = &buf[..n.max(0) as usize];
        match which {
            Which::Out if n > 0 => {
                self.stdout_total += data.len() as u64;
                let room = (self.output_limit as usize).saturating_sub(self.stdout.len());
                self.stdout.extend_from_slice(&data[..data.len().min(room)]);
            }
            Which::Err if n > 0 => {
                let room = STDERR_KEEP.saturating_sub(self.stderr.len());
                self.stderr.extend_from_slice(&data[..data.len().min(room)]);
            }
            Which::Report => match self.from {
                Some(ReportFrom::Socket(_)) => {
                    // One message; anything but a report (or the keeper gone) ends the wait
                    // with no report.
                    if crate::ctl::tag(data) == crate::ctl::REPORT {
                        self.report.extend_from_slice(&data[crate::ctl::HEADER..]);
                    }
                    self.report_done = true;
                }
                _ if n <= 0 => self.report_done = true,
                _ => self.report.extend_from_slice(data),
            },
            Which::Out => self.out = None,
            _ => self.err = None,
        }
    }
}

fn millis_until(d: Duration) -> i32 {
    // Round up so we never wake just before the deadline and spin.
    d.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32
}
