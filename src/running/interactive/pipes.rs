//! Lines over pipes, with deadlines: one side's end of an exchange with a process ([`PipeLink`],
//! for a built-in judge or player facing a program), and the relay between two processes that
//! keeps the transcript ([`relay`]). Everything waits with `poll` and never past a deadline, so a
//! side that neither writes nor reads cannot hold up the other.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use grundy_problems::Link;
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;

use super::{Direction, Transcript, MAX_LINE};

/// A close-on-exec pipe: `(read end, write end)`.
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

fn nonblocking(fd: &OwnedFd) -> io::Result<()> {
    Ok(rustix::io::ioctl_fionbio(fd, true)?)
}

/// Waits until `fd` is ready for `flags` or `deadline` passes; false on the deadline.
fn wait(fd: &OwnedFd, flags: PollFlags, deadline: Instant) -> bool {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        let timeout = Timespec::try_from(left).ok();
        let mut fds = [PollFd::new(fd, flags)];
        match poll(&mut fds, timeout.as_ref()) {
            Ok(0) => continue,
            Ok(_) => return true,
            Err(Errno::INTR) => continue,
            Err(_) => return true,
        }
    }
}

/// A side of an exchange facing a process through two pipes: it reads the process's stdout and
/// writes to its stdin, never waiting past `deadline`.
pub struct PipeLink {
    reader: OwnedFd,
    writer: Option<OwnedFd>,
    pending: Vec<u8>,
    at_end: bool,
    deadline: Instant,
    /// A read gave up at the deadline.
    pub timed_out: bool,
    /// When the process's output ended: the moment it left the exchange, seen in order with
    /// everything this side did.
    pub closed_at: Option<Instant>,
}

impl PipeLink {
    /// `reader` is the process's stdout, `writer` its stdin.
    pub fn new(reader: OwnedFd, writer: OwnedFd, deadline: Instant) -> io::Result<PipeLink> {
        nonblocking(&reader)?;
        nonblocking(&writer)?;
        Ok(PipeLink {
            reader,
            writer: Some(writer),
            pending: Vec::new(),
            at_end: false,
            deadline,
            timed_out: false,
            closed_at: None,
        })
    }

    fn take_line(&mut self) -> Option<Vec<u8>> {
        let end = self.pending.iter().position(|&b| b == b'\n');
        let cut = match end {
            Some(end) => end,
            None if self.pending.len() >= MAX_LINE || (self.at_end && !self.pending.is_empty()) => {
                self.pending.len().min(MAX_LINE)
            }
            None => return None,
        };
        let mut line: Vec<u8> = self.pending.drain(..cut).collect();
        if end.is_some() {
            self.pending.drain(..1);
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Some(line)
    }
}

impl Link for PipeLink {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        loop {
            if let Some(line) = self.take_line() {
                return Some(line);
            }
            if self.at_end {
                return None;
            }
            if !wait(&self.reader, PollFlags::IN, self.deadline) {
                self.timed_out = true;
                return None;
            }
            let mut buffer = [0u8; 64 * 1024];
            match rustix::io::read(&self.reader, &mut buffer) {
                Ok(n @ 1..) => self.pending.extend_from_slice(&buffer[..n]),
                Err(Errno::AGAIN | Errno::INTR) => {}
                Ok(0) | Err(_) => {
                    self.at_end = true;
                    self.closed_at = Some(Instant::now());
                }
            }
        }
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        let Some(writer) = &self.writer else {
            return false;
        };
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            if !wait(writer, PollFlags::OUT, self.deadline) {
                self.timed_out = true;
                return false;
            }
            match rustix::io::write(writer, rest) {
                Ok(n) => rest = &rest[n..],
                Err(Errno::AGAIN | Errno::INTR) => {}
                Err(_) => return false,
            }
        }
        true
    }
}

/// One direction of a relay: from a process's stdout to the other's stdin.
struct Channel {
    from: Option<OwnedFd>,
    to: Option<OwnedFd>,
    /// Read and not yet written.
    buffer: Vec<u8>,
    /// The start of the line being read, for the transcript.
    line: Vec<u8>,
    direction: Direction,
    /// Bytes read in all.
    total: u64,
    /// When the writing process's output ended.
    closed_at: Option<Instant>,
}

impl Channel {
    fn done(&self) -> bool {
        self.from.is_none() && (self.buffer.is_empty() || self.to.is_none())
    }

    fn record(&mut self, bytes: &[u8], transcript: &Mutex<Transcript>) {
        for &byte in bytes {
            if byte == b'\n' {
                let mut line = std::mem::take(&mut self.line);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                lock(transcript).record(self.direction, &line);
            } else if self.line.len() < MAX_LINE {
                self.line.push(byte);
            }
        }
    }
}

fn lock(transcript: &Mutex<Transcript>) -> std::sync::MutexGuard<'_, Transcript> {
    transcript.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a relay saw.
#[derive(Debug, Default)]
pub struct Relayed {
    /// Bytes the program wrote.
    pub from_program: u64,
    /// The program wrote more than the output limit; the relay stopped there.
    pub output_limit: bool,
    /// When the program's and the interactor's outputs ended, in the order the relay saw them.
    pub program_closed: Option<Instant>,
    pub interactor_closed: Option<Instant>,
}

/// Copies the program's stdout to the interactor's stdin and the interactor's stdout to the
/// program's stdin, recording the lines in `transcript`, until both stdouts are closed (their
/// processes ended: the sandbox closes what they leave open), `grace` after the program's output
/// ended, or `deadline`. The end of one side's output is passed on as the end of the other's
/// input; `program_left` is set when the program's output ends, before its end is passed on
/// (so the interactor cannot have seen it yet).
pub fn relay(
    (program_out, to_interactor): (OwnedFd, OwnedFd),
    (interactor_out, to_program): (OwnedFd, OwnedFd),
    transcript: &Mutex<Transcript>,
    (output_limit, program_left): (u64, &AtomicBool),
    (deadline, grace): (Instant, std::time::Duration),
) -> io::Result<Relayed> {
    let mut deadline = deadline;
    for fd in [&program_out, &to_interactor, &interactor_out, &to_program] {
        nonblocking(fd)?;
    }
    let mut channels = [
        Channel {
            from: Some(program_out),
            to: Some(to_interactor),
            buffer: Vec::new(),
            line: Vec::new(),
            direction: Direction::FromProgram,
            total: 0,
            closed_at: None,
        },
        Channel {
            from: Some(interactor_out),
            to: Some(to_program),
            buffer: Vec::new(),
            line: Vec::new(),
            direction: Direction::ToProgram,
            total: 0,
            closed_at: None,
        },
    ];
    let mut relayed = Relayed::default();
    while !channels.iter().all(Channel::done) && Instant::now() < deadline {
        let mut fds = Vec::new();
        let mut roles = Vec::new();
        for (index, channel) in channels.iter().enumerate() {
            // Read only while there is room: a side that does not read holds up the writer.
            if let Some(from) = channel
                .from
                .as_ref()
                .filter(|_| channel.buffer.len() < MAX_LINE)
            {
                fds.push(PollFd::new(from, PollFlags::IN));
                roles.push((index, true));
            }
            if let Some(to) = channel.to.as_ref().filter(|_| !channel.buffer.is_empty()) {
                fds.push(PollFd::new(to, PollFlags::OUT));
                roles.push((index, false));
            }
        }
        if fds.is_empty() {
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let timeout = Timespec::try_from(left).ok();
        match poll(&mut fds, timeout.as_ref()) {
            Ok(0) | Err(Errno::INTR) => continue,
            Ok(_) => {}
            Err(error) => return Err(error.into()),
        }
        let ready: Vec<(usize, bool)> = fds
            .iter()
            .zip(&roles)
            .filter(|(fd, _)| !fd.revents().is_empty())
            .map(|(_, role)| *role)
            .collect();
        drop(fds);
        for (index, reading) in ready {
            let channel = &mut channels[index];
            if reading {
                read_into(channel, transcript);
            } else {
                write_from(channel);
            }
        }
        relayed.program_closed = channels[0].closed_at;
        relayed.interactor_closed = channels[1].closed_at;
        if relayed.program_closed.is_some() {
            program_left.store(true, Ordering::SeqCst);
        }
        if let Some(closed) = relayed.program_closed {
            deadline = deadline.min(closed + grace);
        }
        let program = &mut channels[0];
        relayed.from_program = program.total;
        if program.total > output_limit {
            relayed.output_limit = true;
            break;
        }
        for channel in &mut channels {
            // The end of a side's output, once passed on, is the end of the other's input.
            if channel.from.is_none() && channel.buffer.is_empty() {
                channel.to = None;
            }
        }
    }
    Ok(relayed)
}

fn read_into(channel: &mut Channel, transcript: &Mutex<Transcript>) {
    let Some(from) = &channel.from else { return };
    let mut buffer = [0u8; 64 * 1024];
    match rustix::io::read(from, &mut buffer) {
        Ok(0) | Err(Errno::PIPE | Errno::IO) => {
            channel.from = None;
            channel.closed_at = Some(Instant::now());
        }
        Ok(n) => {
            channel.total += n as u64;
            channel.record(&buffer[..n], transcript);
            if channel.to.is_some() {
                channel.buffer.extend_from_slice(&buffer[..n]);
            }
        }
        Err(Errno::AGAIN | Errno::INTR) => {}
        Err(_) => {
            channel.from = None;
            channel.closed_at = Some(Instant::now());
        }
    }
}

fn write_from(channel: &mut Channel) {
    let Some(to) = &channel.to else { return };
    match rustix::io::write(to, &channel.buffer) {
        Ok(n) => {
            channel.buffer.drain(..n);
        }
        Err(Errno::AGAIN | Errno::INTR) => {}
        // The reader is gone: what it did not read is dropped.
        Err(_) => {
            channel.to = None;
            channel.buffer.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_pipe_link_reads_lines_and_gives_up_at_its_deadline() {
        let (their_out_r, their_out_w) = pipe().unwrap();
        let (their_in_r, their_in_w) = pipe().unwrap();
        let deadline = Instant::now() + Duration::from_millis(200);
        let mut link = PipeLink::new(their_out_r, their_in_w, deadline).unwrap();
        rustix::io::write(&their_out_w, b"first\r\nsecond\nthi").unwrap();
        assert_eq!(link.read_line().as_deref(), Some(&b"first"[..]));
        assert_eq!(link.read_line().as_deref(), Some(&b"second"[..]));
        assert!(link.write_line(b"answer"));
        let mut got = [0u8; 16];
        let n = rustix::io::read(&their_in_r, &mut got).unwrap();
        assert_eq!(&got[..n], b"answer\n");
        // `thi` has no line end yet, and nothing more comes before the deadline.
        assert_eq!(link.read_line(), None);
        assert!(link.timed_out);
    }

    #[test]
    fn the_end_of_their_output_ends_the_last_line_and_then_reading() {
        let (out_r, out_w) = pipe().unwrap();
        let (_in_r, in_w) = pipe().unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut link = PipeLink::new(out_r, in_w, deadline).unwrap();
        rustix::io::write(&out_w, b"last").unwrap();
        drop(out_w);
        assert_eq!(link.read_line().as_deref(), Some(&b"last"[..]));
        assert_eq!(link.read_line(), None);
        assert!(!link.timed_out);
    }

    #[test]
    fn writing_to_a_side_that_is_gone_fails_instead_of_killing_us() {
        let (out_r, _out_w) = pipe().unwrap();
        let (in_r, in_w) = pipe().unwrap();
        drop(in_r);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut link = PipeLink::new(out_r, in_w, deadline).unwrap();
        assert!(!link.write_line(b"anyone?"));
    }

    #[test]
    fn the_relay_passes_both_ways_records_lines_and_passes_the_end_on() {
        let (program_out_r, program_out_w) = pipe().unwrap();
        let (to_interactor_r, to_interactor_w) = pipe().unwrap();
        let (interactor_out_r, interactor_out_w) = pipe().unwrap();
        let (to_program_r, to_program_w) = pipe().unwrap();
        rustix::io::write(&interactor_out_w, b"question\n").unwrap();
        rustix::io::write(&program_out_w, b"answer\n").unwrap();
        drop((interactor_out_w, program_out_w));
        let transcript = Mutex::new(Transcript::default());
        let deadline = Instant::now() + Duration::from_secs(60);
        let relayed = relay(
            (program_out_r, to_interactor_w),
            (interactor_out_r, to_program_w),
            &transcript,
            (1 << 20, &AtomicBool::new(false)),
            (deadline, Duration::from_secs(60)),
        )
        .unwrap();
        assert_eq!(relayed.from_program, 7);
        let read_all = |fd: &OwnedFd| {
            let mut all = Vec::new();
            let mut buffer = [0u8; 64];
            while let Ok(n @ 1..) = rustix::io::read(fd, &mut buffer) {
                all.extend_from_slice(&buffer[..n]);
            }
            all
        };
        assert_eq!(read_all(&to_interactor_r), b"answer\n", "and then the end");
        assert_eq!(read_all(&to_program_r), b"question\n");
        let text = lock(&transcript).render();
        assert!(
            text.contains("> question\n") && text.contains("< answer\n"),
            "{text}"
        );
    }
}
