//! Descriptors: exiting, closing, duplicating, reading and writing.

use super::{again, call, Res};

pub(crate) fn exit(code: i32) -> ! {
    // SAFETY: exit_group takes an integer and does not return.
    let _ = unsafe { sys!(libc::SYS_exit_group, code) };
    // It returned: a box's filter sends failing exits to a tracer, and this process (the box's
    // keeper, or a program child not traced yet) has none. Exiting with 0 is always allowed;
    // what failed was already said another way (a message, the launch pad).
    // SAFETY: as above.
    let _ = unsafe { sys!(libc::SYS_exit_group, 0) };
    #[allow(clippy::empty_loop)]
    loop {}
}

/// # Safety
/// Nothing else in this process may own `fd` (or go on using it).
pub(crate) unsafe fn close(fd: i32) {
    // SAFETY: the caller owns fd.
    let _ = unsafe { sys!(libc::SYS_close, fd) };
}

/// Closes every descriptor from `first` to `last` (inclusive).
///
/// # Safety
/// Nothing else in this process may own a descriptor in the range.
pub(crate) unsafe fn close_range(first: i32, last: u32) -> Res {
    // SAFETY: the caller owns the range.
    unsafe { sys!(libc::SYS_close_range, first, last, 0) }
}

/// A close-on-exec duplicate of `fd` numbered `min` or more.
pub(crate) fn dup_above(fd: i32, min: i32) -> Res {
    // SAFETY: F_DUPFD_CLOEXEC only creates a new descriptor.
    unsafe { sys!(libc::SYS_fcntl, fd, libc::F_DUPFD_CLOEXEC, min) }
}

/// # Safety
/// `to` is closed first if open: nothing else in this process may own it.
pub(crate) unsafe fn dup3(from: i32, to: i32, flags: i32) -> Res {
    // SAFETY: the caller owns `to`.
    unsafe { sys!(libc::SYS_dup3, from, to, flags) }
}

pub(crate) fn write(fd: i32, bytes: &[u8]) -> Res {
    // SAFETY: the buffer is valid for reads of its length.
    again(|| unsafe { sys!(libc::SYS_write, fd, bytes.as_ptr(), bytes.len()) })
}

pub(crate) fn write_all(fd: i32, mut bytes: &[u8]) -> bool {
    while !bytes.is_empty() {
        match write(fd, bytes) {
            Ok(0) | Err(_) => return false,
            Ok(n) => bytes = bytes.get(n..).unwrap_or(&[]),
        }
    }
    true
}

/// Reads from offset 0 (cgroup and /proc files regenerate their text there).
pub(crate) fn pread(fd: i32, buf: &mut [u8]) -> usize {
    // SAFETY: the buffer is valid for writes of its length.
    again(|| unsafe { sys!(libc::SYS_pread64, fd, buf.as_mut_ptr(), buf.len(), 0) }).unwrap_or(0)
}
