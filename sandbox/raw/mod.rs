//! System calls for the code that runs in processes sharing another's memory: the plain
//! supervisor (a CLONE_VM child of the runner), the box keeper (a fork of the runner) and the
//! program child (a CLONE_VM | CLONE_VFORK child of either). Such code must not allocate, take
//! locks or even touch libc's `errno` (it lives in the runner thread's TLS). On x86-64 and
//! aarch64 the calls are made directly and errors come back as `Err(errno)`; elsewhere the
//! supervisor is a forked copy instead and libc's `syscall` is fine.
//!
//! Wrappers whose arguments are integers or Rust references are safe functions; those that
//! take raw pointers, or close descriptors something else may own, are `unsafe fn`.

pub(crate) type Res = Result<usize, i32>;

/// Whether the supervisor can share the runner's memory (saves a fork of the whole runner).
pub(crate) const SHARES_MEMORY: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// A system call with up to six arguments.
///
/// # Safety
/// The arguments must be valid for `nr`, as for the syscall(2) function: pointers must point to
/// memory of the size and mutability the call expects, and the call must not break an
/// invariant Rust code relies on (closing a descriptor in use, unmapping live memory).
#[inline(always)]
pub(crate) unsafe fn call(nr: libc::c_long, a: [usize; 6]) -> Res {
    let ret: isize;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller upholds the syscall's contract; the asm clobbers only what the
    // syscall instruction does (rax, rcx, r11) and does not touch the stack.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") nr as isize => ret,
            in("rdi") a[0], in("rsi") a[1], in("rdx") a[2],
            in("r10") a[3], in("r8") a[4], in("r9") a[5],
            lateout("rcx") _, lateout("r11") _,
            options(nostack),
        );
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above; svc clobbers only x0.
    unsafe {
        std::arch::asm!(
            "svc 0",
            in("x8") nr,
            inlateout("x0") a[0] as isize => ret,
            in("x1") a[1], in("x2") a[2], in("x3") a[3], in("x4") a[4], in("x5") a[5],
            options(nostack),
        );
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        // SAFETY: the caller upholds the syscall's contract.
        let r = unsafe { libc::syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]) };
        ret = if r == -1 {
            -(crate::sys::errno() as isize)
        } else {
            r as isize
        };
    }
    if (-4095..0).contains(&ret) {
        Err(-ret as i32)
    } else {
        Ok(ret as usize)
    }
}

/// `call` with fewer than six arguments; expands to an unsafe call, so it must be used inside
/// an `unsafe` block whose SAFETY comment covers the arguments.
macro_rules! sys {
    ($nr:expr $(, $arg:expr)*) => {{
        let mut args = [0usize; 6];
        let given = [$($arg as usize),*];
        args[..given.len()].copy_from_slice(&given);
        call($nr, args)
    }};
}

/// Retries on EINTR.
fn again(mut f: impl FnMut() -> Res) -> Res {
    loop {
        match f() {
            Err(libc::EINTR) => continue,
            other => return other,
        }
    }
}

mod fd;
mod fs;
mod process;
mod wait;

pub(crate) use fd::*;
pub(crate) use fs::*;
pub(crate) use process::*;
pub(crate) use wait::*;
