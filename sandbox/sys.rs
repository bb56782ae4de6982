//! Small runner-side helpers: pipes, errno, error conversion, and a `Key: value` parser that
//! allocates nothing (the supervisor uses it too).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// Turns a `-1`-on-error return into an `io::Result` (runner side only: reads `errno`).
pub(crate) fn cvt(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// A close-on-exec pipe: `(read end, write end)`.
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [-1; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe2 to fill.
    cvt(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: pipe2 succeeded, so both descriptors are open and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The calling thread's `errno` (runner side only).
pub(crate) fn errno() -> libc::c_int {
    // SAFETY: __errno_location always returns a valid pointer to the thread's errno.
    unsafe { *libc::__errno_location() }
}

/// Finds `key` at a line start in `text` and parses the number after it (as in
/// `VmHWM:\t  1234 kB`). Allocates nothing.
pub(crate) fn field_u64(text: &[u8], key: &[u8]) -> Option<u64> {
    let mut line_start = 0;
    while line_start < text.len() {
        let rest = &text[line_start..];
        let line_len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let line = &rest[..line_len];
        if line.starts_with(key) {
            let digits = line[key.len()..]
                .iter()
                .skip_while(|b| !b.is_ascii_digit())
                .take_while(|b| b.is_ascii_digit());
            let mut value: u64 = 0;
            let mut any = false;
            for &d in digits {
                value = value.saturating_mul(10).saturating_add(u64::from(d - b'0'));
                any = true;
            }
            return any.then_some(value);
        }
        line_start += line_len + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_status_fields() {
        let status = b"Name:\tx\nVmPeak:\t  10240 kB\nVmHWM:\t     512 kB\noom_kill 3\n";
        assert_eq!(field_u64(status, b"VmPeak:"), Some(10240));
        assert_eq!(field_u64(status, b"VmHWM:"), Some(512));
        assert_eq!(field_u64(status, b"oom_kill "), Some(3));
        assert_eq!(field_u64(status, b"VmRSS:"), None);
    }
}
