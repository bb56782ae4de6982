//! System calls for the supervisor and the program child, which share the runner's memory
//! (CLONE_VM, like posix_spawn's vfork) and so must not touch it: no allocation, no locks, and
//! not even libc's `errno`, which lives in the runner thread's TLS. On x86-64 and aarch64 the
//! calls are made directly (errors come back as `Err(errno)`); elsewhere the supervisor is a
//! forked copy instead and libc's `syscall` is fine.

use std::ffi::CStr;

pub(crate) type Res = Result<usize, i32>;

/// Whether the supervisor can share the runner's memory (saves a fork of the whole runner).
pub(crate) const SHARES_MEMORY: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// A system call with up to six arguments.
///
/// # Safety
/// The arguments must be valid for `nr`, as for the syscall(2) function.
#[inline(always)]
pub(crate) unsafe fn call(nr: libc::c_long, a: [usize; 6]) -> Res {
    let ret: isize;
    #[cfg(target_arch = "x86_64")]
    std::arch::asm!(
        "syscall",
        inlateout("rax") nr as isize => ret,
        in("rdi") a[0], in("rsi") a[1], in("rdx") a[2],
        in("r10") a[3], in("r8") a[4], in("r9") a[5],
        lateout("rcx") _, lateout("r11") _,
        options(nostack),
    );
    #[cfg(target_arch = "aarch64")]
    std::arch::asm!(
        "svc 0",
        in("x8") nr,
        inlateout("x0") a[0] as isize => ret,
        in("x1") a[1], in("x2") a[2], in("x3") a[3], in("x4") a[4], in("x5") a[5],
        options(nostack),
    );
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let r = libc::syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
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

pub(crate) unsafe fn exit(code: i32) -> ! {
    let _ = sys!(libc::SYS_exit_group, code);
    #[allow(clippy::empty_loop)]
    loop {}
}

pub(crate) unsafe fn close(fd: i32) {
    let _ = sys!(libc::SYS_close, fd);
}

pub(crate) unsafe fn dup_above(fd: i32, min: i32) -> Res {
    sys!(libc::SYS_fcntl, fd, libc::F_DUPFD_CLOEXEC, min)
}

pub(crate) unsafe fn dup3(from: i32, to: i32, flags: i32) -> Res {
    sys!(libc::SYS_dup3, from, to, flags)
}

pub(crate) unsafe fn close_from(first: i32) -> Res {
    sys!(libc::SYS_close_range, first, u32::MAX, 0)
}

pub(crate) unsafe fn write_all(fd: i32, mut bytes: &[u8]) -> bool {
    while !bytes.is_empty() {
        match again(|| sys!(libc::SYS_write, fd, bytes.as_ptr(), bytes.len())) {
            Ok(n) => bytes = bytes.get(n..).unwrap_or(&[]),
            Err(_) => return false,
        }
    }
    true
}

pub(crate) unsafe fn pread(fd: i32, buf: &mut [u8]) -> usize {
    again(|| sys!(libc::SYS_pread64, fd, buf.as_mut_ptr(), buf.len(), 0)).unwrap_or(0)
}

pub(crate) unsafe fn open_read(path: &CStr) -> Res {
    sys!(
        libc::SYS_openat,
        libc::AT_FDCWD,
        path.as_ptr(),
        libc::O_RDONLY | libc::O_CLOEXEC
    )
}

pub(crate) unsafe fn readlink(path: &CStr, buf: &mut [u8]) -> Res {
    sys!(
        libc::SYS_readlinkat,
        libc::AT_FDCWD,
        path.as_ptr(),
        buf.as_mut_ptr(),
        buf.len()
    )
}

pub(crate) unsafe fn chdir(path: &CStr) -> Res {
    sys!(libc::SYS_chdir, path.as_ptr())
}

pub(crate) unsafe fn setrlimit(resource: u32, limit: &libc::rlimit) -> Res {
    sys!(
        libc::SYS_prlimit64,
        0,
        resource,
        limit as *const libc::rlimit,
        0
    )
}

pub(crate) unsafe fn prctl(option: i32, a: usize, b: usize) -> Res {
    sys!(libc::SYS_prctl, option, a, b, 0, 0)
}

pub(crate) unsafe fn setpgid_self() {
    let _ = sys!(libc::SYS_setpgid, 0, 0);
}

pub(crate) unsafe fn getppid() -> i32 {
    sys!(libc::SYS_getppid).unwrap_or(0) as i32
}

pub(crate) unsafe fn execve(
    path: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
) -> i32 {
    sys!(libc::SYS_execve, path, argv, envp).err().unwrap_or(0)
}

pub(crate) unsafe fn ptrace(request: u32, pid: i32, addr: usize, data: usize) -> Res {
    sys!(libc::SYS_ptrace, request, pid, addr, data)
}

/// wait4 with __WALL, retrying on EINTR: `(pid, status)`.
pub(crate) unsafe fn wait_any(pid: i32, usage: &mut libc::rusage) -> Result<(i32, i32), i32> {
    let mut status = 0i32;
    let got = again(|| {
        sys!(
            libc::SYS_wait4,
            pid,
            &mut status as *mut i32,
            libc::__WALL,
            usage as *mut libc::rusage
        )
    })?;
    Ok((got as i32, status))
}

/// The kernel's struct sigaction (not libc's): handler, flags, restorer, mask.
#[repr(C)]
struct KernelSigaction {
    handler: usize,
    flags: u64,
    restorer: usize,
    mask: u64,
}

pub(crate) unsafe fn default_signal(sig: i32) {
    let action = KernelSigaction {
        handler: libc::SIG_DFL,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    let _ = sys!(
        libc::SYS_rt_sigaction,
        sig,
        &action as *const KernelSigaction,
        0,
        8
    );
}

/// Blocks every signal (`block`) or none.
pub(crate) unsafe fn mask_all(block: bool) {
    let set: u64 = if block { !0 } else { 0 };
    let _ = sys!(
        libc::SYS_rt_sigprocmask,
        libc::SIG_SETMASK,
        &set as *const u64,
        0,
        8
    );
}
