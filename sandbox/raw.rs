//! System calls for the code that runs in processes sharing another's memory: the plain
//! supervisor (a CLONE_VM child of the runner), the box keeper (a fork of the runner) and the
//! program child (a CLONE_VM | CLONE_VFORK child of either). Such code must not allocate, take
//! locks or even touch libc's `errno` (it lives in the runner thread's TLS). On x86-64 and
//! aarch64 the calls are made directly and errors come back as `Err(errno)`; elsewhere the
//! supervisor is a forked copy instead and libc's `syscall` is fine.
//!
//! Wrappers whose arguments are integers or Rust references are safe functions; those that
//! take raw pointers, or close descriptors something else may own, are `unsafe fn`.

use std::ffi::CStr;
use std::ptr;

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

pub(crate) fn exit(code: i32) -> ! {
    // SAFETY: exit_group takes an integer and does not return.
    let _ = unsafe { sys!(libc::SYS_exit_group, code) };
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

pub(crate) fn openat(dir: i32, path: &CStr, flags: i32, mode: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_openat, dir, path.as_ptr(), flags, mode) }
}

pub(crate) fn open(path: &CStr, flags: i32) -> Res {
    openat(libc::AT_FDCWD, path, flags | libc::O_CLOEXEC, 0)
}

pub(crate) fn chdir(path: &CStr) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_chdir, path.as_ptr()) }
}

pub(crate) fn mkdir(path: &CStr, mode: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_mkdirat, libc::AT_FDCWD, path.as_ptr(), mode) }
}

pub(crate) fn rmdir(path: &CStr) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe {
        sys!(
            libc::SYS_unlinkat,
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::AT_REMOVEDIR
        )
    }
}

pub(crate) fn symlink(target: &CStr, path: &CStr) -> Res {
    // SAFETY: both strings are NUL-terminated.
    unsafe {
        sys!(
            libc::SYS_symlinkat,
            target.as_ptr(),
            libc::AT_FDCWD,
            path.as_ptr()
        )
    }
}

pub(crate) fn chown(path: &CStr, uid: u32, gid: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe {
        sys!(
            libc::SYS_fchownat,
            libc::AT_FDCWD,
            path.as_ptr(),
            uid,
            gid,
            libc::AT_SYMLINK_NOFOLLOW
        )
    }
}

pub(crate) fn chmod(path: &CStr, mode: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_fchmodat, libc::AT_FDCWD, path.as_ptr(), mode) }
}

/// mount(2); `fstype` and `data` may be absent.
pub(crate) fn mount(
    source: &CStr,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: u64,
    data: Option<&CStr>,
) -> Res {
    let or_null = |s: Option<&CStr>| s.map_or(ptr::null(), CStr::as_ptr);
    // SAFETY: every pointer is a NUL-terminated string or null, as mount(2) allows.
    unsafe {
        sys!(
            libc::SYS_mount,
            source.as_ptr(),
            target.as_ptr(),
            or_null(fstype),
            flags,
            or_null(data)
        )
    }
}

pub(crate) fn umount_detach(target: &CStr) -> Res {
    // SAFETY: target is NUL-terminated.
    unsafe { sys!(libc::SYS_umount2, target.as_ptr(), libc::MNT_DETACH) }
}

pub(crate) fn pivot_root(new_root: &CStr, put_old: &CStr) -> Res {
    // SAFETY: both strings are NUL-terminated.
    unsafe { sys!(libc::SYS_pivot_root, new_root.as_ptr(), put_old.as_ptr()) }
}

pub(crate) fn setrlimit(resource: u32, limit: &libc::rlimit) -> Res {
    // SAFETY: limit points to a valid rlimit; the old-value pointer is null.
    unsafe {
        sys!(
            libc::SYS_prlimit64,
            0,
            resource,
            limit as *const libc::rlimit,
            0
        )
    }
}

/// prctl options that take integers only (not PR_SET_SECCOMP, not PR_SET_MM).
pub(crate) fn prctl(option: i32, a: usize, b: usize) -> Res {
    debug_assert!(option != libc::PR_SET_SECCOMP && option != libc::PR_SET_MM);
    // SAFETY: the options allowed here read no memory.
    unsafe { sys!(libc::SYS_prctl, option, a, b, 0, 0) }
}

/// Installs a seccomp filter (no_new_privs must be set, or the caller privileged).
pub(crate) fn seccomp(filter: &[libc::sock_filter]) -> Res {
    let program = libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_ptr().cast_mut(),
    };
    // SAFETY: the kernel copies the program, which points to `filter` (read only).
    unsafe {
        sys!(
            libc::SYS_prctl,
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &program as *const libc::sock_fprog,
            0,
            0
        )
    }
}

pub(crate) fn setsid() {
    // SAFETY: no arguments.
    let _ = unsafe { sys!(libc::SYS_setsid) };
}

pub(crate) fn setpgid_self() {
    // SAFETY: integer arguments only.
    let _ = unsafe { sys!(libc::SYS_setpgid, 0, 0) };
}

pub(crate) fn getppid() -> i32 {
    // SAFETY: no arguments.
    unsafe { sys!(libc::SYS_getppid) }.unwrap_or(0) as i32
}

pub(crate) fn kill(pid: i32, sig: i32) -> Res {
    // SAFETY: integer arguments only.
    unsafe { sys!(libc::SYS_kill, pid, sig) }
}

pub(crate) fn setgroups_none() -> Res {
    // SAFETY: an empty list: the pointer is not read.
    unsafe { sys!(libc::SYS_setgroups, 0, 0) }
}

pub(crate) fn setresgid(gid: u32) -> Res {
    // SAFETY: integer arguments only.
    unsafe { sys!(libc::SYS_setresgid, gid, gid, gid) }
}

pub(crate) fn setresuid(uid: u32) -> Res {
    // SAFETY: integer arguments only.
    unsafe { sys!(libc::SYS_setresuid, uid, uid, uid) }
}

/// Empties the effective, permitted and inheritable capability sets of this thread.
pub(crate) fn drop_capabilities() -> Res {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    let header = Header {
        version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3
        pid: 0,
    };
    let data = [0u32; 6]; // two __user_cap_data_struct of three u32
                          // SAFETY: header and data have the layout capset(2) expects for version 3.
    unsafe { sys!(libc::SYS_capset, &header as *const Header, data.as_ptr()) }
}

/// # Safety
/// `argv` and `envp` must be null-terminated arrays of NUL-terminated strings.
pub(crate) unsafe fn execve(
    path: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
) -> i32 {
    // SAFETY: the caller vouches for the arrays.
    unsafe { sys!(libc::SYS_execve, path, argv, envp) }
        .err()
        .unwrap_or(0)
}

pub(crate) fn ptrace_traceme() -> Res {
    // SAFETY: PTRACE_TRACEME reads no memory.
    unsafe { sys!(libc::SYS_ptrace, libc::PTRACE_TRACEME, 0, 0, 0) }
}

/// PTRACE_CONT, PTRACE_SYSCALL, PTRACE_SETOPTIONS or PTRACE_SEIZE: requests that take
/// integers only.
pub(crate) fn ptrace_simple(request: u32, pid: i32, data: usize) -> Res {
    debug_assert!(matches!(
        request,
        libc::PTRACE_CONT | libc::PTRACE_SYSCALL | libc::PTRACE_SETOPTIONS | libc::PTRACE_SEIZE
    ));
    // SAFETY: these requests read and write no memory of ours.
    unsafe { sys!(libc::SYS_ptrace, request, pid, 0, data) }
}

/// PTRACE_GET_SYSCALL_INFO into `info` (of `size_of::<T>()` bytes).
pub(crate) fn ptrace_syscall_info<T>(pid: i32, info: &mut T) -> Res {
    // SAFETY: the kernel writes at most size_of::<T>() bytes into `info`.
    unsafe {
        sys!(
            libc::SYS_ptrace,
            libc::PTRACE_GET_SYSCALL_INFO,
            pid,
            std::mem::size_of::<T>(),
            info as *mut T
        )
    }
}

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
            ptr::null()
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
