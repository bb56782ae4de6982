//! Waiting and waking: wait4, poll, futexes, the clock, memory, socket messages, signal
//! dispositions and masks, and two allocation-free string helpers.

use std::ffi::CStr;

use super::{again, call, Res};

/// wait4 with `flags | __WALL`, retrying on EINTR: `(pid, status)`; pid 0 with WNOHANG when
/// nothing is ready.
pub(crate) fn wait_any(pid: i32, flags: i32, usage: &mut libc::rusage) -> Result<(i32, i32), i32> {
    let mut status = 0i32;
    let got = again(|| {
        // SAFETY: status and usage are valid for writes.
        unsafe {
            sys!(
                libc::SYS_wait4,
                pid,
                &mut status as *mut i32,
                flags | libc::__WALL,
                usage as *mut libc::rusage
            )
        }
    })?;
    Ok((got as i32, status))
}

pub(crate) fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> Res {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: fds is a valid array of pollfd of the given length.
    return unsafe { sys!(libc::SYS_poll, fds.as_mut_ptr(), fds.len(), timeout_ms) };
    #[cfg(not(target_arch = "x86_64"))]
    {
        let ts = libc::timespec {
            tv_sec: (timeout_ms / 1000) as libc::time_t,
            tv_nsec: ((timeout_ms % 1000) * 1_000_000) as libc::c_long,
        };
        let tsp = if timeout_ms < 0 {
            std::ptr::null()
        } else {
            &ts as *const _
        };
        // SAFETY: fds is a valid array; tsp is null or a valid timespec; no signal mask.
        unsafe { sys!(libc::SYS_ppoll, fds.as_mut_ptr(), fds.len(), tsp, 0, 8) }
    }
}

/// CLOCK_MONOTONIC in nanoseconds (the clock `std::time::Instant` reads on Linux).
pub(crate) fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is valid for writes.
    let _ = unsafe {
        sys!(
            libc::SYS_clock_gettime,
            libc::CLOCK_MONOTONIC,
            &mut ts as *mut libc::timespec
        )
    };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Waits while `word` holds `expected` (or until woken; spurious wakes are the caller's to
/// handle).
pub(crate) fn futex_wait(word: &std::sync::atomic::AtomicU32, expected: u32) {
    // SAFETY: the futex word is a valid, aligned u32 that lives as long as the reference.
    let _ = unsafe {
        sys!(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            0
        )
    };
}

/// Wakes the waiters on `word`.
pub(crate) fn futex_wake(word: &std::sync::atomic::AtomicU32) {
    // SAFETY: as above.
    let _ = unsafe {
        sys!(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            i32::MAX
        )
    };
}

/// A fresh private anonymous read-write mapping.
pub(crate) fn map_anonymous(len: usize) -> Result<*mut u8, i32> {
    // SAFETY: a new mapping at an address the kernel picks cannot overlap live memory.
    unsafe {
        sys!(
            libc::SYS_mmap,
            0,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1i32,
            0
        )
    }
    .map(|p| p as *mut u8)
}

/// sendmsg(2) / recvmsg(2) on a socket.
///
/// # Safety
/// `msg` must describe valid buffers (iovecs and control data) for the call.
pub(crate) unsafe fn socket_message(
    recv: bool,
    fd: i32,
    msg: *mut libc::msghdr,
    flags: i32,
) -> Res {
    let nr = if recv {
        libc::SYS_recvmsg
    } else {
        libc::SYS_sendmsg
    };
    // SAFETY: the caller vouches for msg.
    again(|| unsafe { sys!(nr, fd, msg, flags) })
}

/// The kernel's struct sigaction (not libc's): handler, flags, restorer, mask.
#[repr(C)]
struct KernelSigaction {
    handler: usize,
    flags: u64,
    restorer: usize,
    mask: u64,
}

pub(crate) fn default_signal(sig: i32) {
    let action = KernelSigaction {
        handler: libc::SIG_DFL,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    // SAFETY: action is a valid kernel sigaction; no old action is read back.
    let _ = unsafe {
        sys!(
            libc::SYS_rt_sigaction,
            sig,
            &action as *const KernelSigaction,
            0,
            8
        )
    };
}

/// Blocks every signal (`block`) or none.
pub(crate) fn mask_all(block: bool) {
    let set: u64 = if block { !0 } else { 0 };
    // SAFETY: set is a valid 8-byte signal set; no old mask is read back.
    let _ = unsafe {
        sys!(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK,
            &set as *const u64,
            0,
            8
        )
    };
}

/// Formats `n` in decimal into `buf`, returning the digits (no allocation).
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

/// Joins byte strings into `buf` with a final NUL, as a C string (None if it does not fit).
pub(crate) fn join_cstr<'a>(parts: &[&[u8]], buf: &'a mut [u8]) -> Option<&'a CStr> {
    let mut at = 0;
    for part in parts {
        buf.get_mut(at..at + part.len())?.copy_from_slice(part);
        at += part.len();
    }
    *buf.get_mut(at)? = 0;
    CStr::from_bytes_with_nul(&buf[..=at]).ok()
}
