//! The program's three standard descriptors. Its stdin is never a file of the host: a file or
//! bytes go through a pipe that the runner fills (as much as fits before the program starts,
//! the rest from the poll loop, never blocking), so `/proc/self/fd/0` names no path and a
//! program that never reads blocks nothing.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use crate::spec::{Stdin, Stdout};
use crate::sys::{cvt, errno, pipe};

/// The pipe capacity asked for when an input is larger than the default 64 KiB (1 MiB is the
/// most an unprivileged process may ask for by default).
const BIG_PIPE: usize = 1 << 20;

/// The program's side of stdio, and the runner's.
pub(crate) struct Stdio {
    pub child_in: OwnedFd,
    pub child_out: OwnedFd,
    pub child_err: OwnedFd,
    pub feeder: Option<Feeder>,
    /// Read end of stdout when captured.
    pub out: Option<OwnedFd>,
    pub err: OwnedFd,
}

pub(crate) fn open(stdin: Stdin, stdout: Stdout) -> io::Result<Stdio> {
    let (child_in, feeder) = match stdin {
        Stdin::Fd(fd) => (fd, None),
        Stdin::Null => (File::open("/dev/null")?.into(), None),
        Stdin::File(file) => {
            let size = file.metadata().map_or(0, |m| m.len() as usize);
            feed(Source::File(file), size)?
        }
        Stdin::Bytes(bytes) => {
            let size = bytes.len();
            feed(Source::Bytes(bytes, 0), size)?
        }
    };
    let (out, child_out) = match stdout {
        Stdout::Capture => {
            let (r, w) = pipe()?;
            (Some(r), w)
        }
        Stdout::Fd(fd) => (None, fd),
    };
    let (err, child_err) = pipe()?;
    Ok(Stdio {
        child_in,
        child_out,
        child_err,
        feeder,
        out,
        err,
    })
}

/// A pipe for `source` (of `size` bytes), filled as far as it goes now; the feeder is None if
/// everything fit (the write end is then closed: the program sees the end of its input).
fn feed(source: Source, size: usize) -> io::Result<(OwnedFd, Option<Feeder>)> {
    let (r, w) = pipe()?;
    if size > 64 * 1024 {
        // SAFETY: fcntl on our own pipe; failing only leaves the default size.
        unsafe { libc::fcntl(w.as_raw_fd(), libc::F_SETPIPE_SZ, size.min(BIG_PIPE) as i32) };
    }
    // SAFETY: fcntl on our own pipe.
    cvt(unsafe { libc::fcntl(w.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) })?;
    let mut feeder = Feeder {
        source,
        pipe: w,
        spliced: true,
    };
    let done = feeder.feed();
    Ok((r, (!done).then_some(feeder)))
}

enum Source {
    File(File),
    Bytes(Vec<u8>, usize),
}

/// The write end of a stdin pipe and what is left to write into it.
pub(crate) struct Feeder {
    source: Source,
    pipe: OwnedFd,
    /// Whether splice(2) still works for this file (some file systems cannot splice).
    spliced: bool,
}

impl Feeder {
    pub(crate) fn fd(&self) -> RawFd {
        self.pipe.as_raw_fd()
    }

    /// Writes what the pipe takes now. True when done: everything is written, or the program
    /// closed its end (EPIPE: it exited or stopped reading), or the input failed.
    pub(crate) fn feed(&mut self) -> bool {
        loop {
            let pipe = self.pipe.as_raw_fd();
            let step: Result<usize, i32> = match &mut self.source {
                Source::Bytes(bytes, at) => {
                    let rest = &bytes[*at..];
                    if rest.is_empty() {
                        return true;
                    }
                    // SAFETY: rest is a valid buffer of its length.
                    let n = unsafe { libc::write(pipe, rest.as_ptr().cast(), rest.len()) };
                    if n >= 0 {
                        *at += n as usize;
                        Ok(n as usize)
                    } else {
                        Err(errno())
                    }
                }
                Source::File(file) if self.spliced => {
                    // SAFETY: splice between two descriptors we own; null offsets use and
                    // advance the file position.
                    let n = unsafe {
                        libc::splice(
                            file.as_raw_fd(),
                            std::ptr::null_mut(),
                            pipe,
                            std::ptr::null_mut(),
                            BIG_PIPE,
                            libc::SPLICE_F_NONBLOCK,
                        )
                    };
                    match n {
                        0 => return true,
                        n if n > 0 => Ok(n as usize),
                        _ if errno() == libc::EINVAL => {
                            self.spliced = false;
                            continue;
                        }
                        _ => Err(errno()),
                    }
                }
                Source::File(file) => match copy_some(file, pipe) {
                    Ok(0) => return true,
                    other => other,
                },
            };
            match step {
                Ok(_) | Err(libc::EINTR) => continue,
                // The pipe is full: go on when the program has read some.
                Err(libc::EAGAIN) => return false,
                // EPIPE (the program exited or closed stdin) or a failing input: stop feeding.
                Err(_) => return true,
            }
        }
    }
}

/// One read(2) from `file` and a write of it to `pipe`, for files splice cannot read. A short
/// write seeks the file back to what was not written. Returns the bytes written (0 at EOF),
/// or the errno (EAGAIN when the pipe is full).
fn copy_some(file: &mut File, pipe: RawFd) -> Result<usize, i32> {
    let mut buf = [0u8; 64 * 1024];
    // SAFETY: buf is valid for writes of its length.
    let n = unsafe { libc::read(file.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
    if n <= 0 {
        return if n == 0 { Ok(0) } else { Err(errno()) };
    }
    // SAFETY: the first n bytes of buf were just read.
    let written = unsafe { libc::write(pipe, buf.as_ptr().cast(), n as usize) };
    let err = errno();
    let unwritten = n - written.max(0);
    if unwritten > 0 {
        // SAFETY: lseek on our own file.
        unsafe {
            libc::lseek(
                file.as_raw_fd(),
                -(unwritten as libc::off_t),
                libc::SEEK_CUR,
            )
        };
    }
    if written <= 0 {
        Err(err)
    } else {
        Ok(written as usize)
    }
}
