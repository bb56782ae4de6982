//! The calling process: limits, prctl, seccomp, session, signals sent, identity and
//! capabilities, exec and ptrace.

use super::{call, Res};

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
    keep_capabilities(0)
}

/// Keeps only the capabilities in `keep` (a bit per capability number) in the effective and
/// permitted sets of this thread, and none inheritable.
pub(crate) fn keep_capabilities(keep: u64) -> Res {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    let header = Header {
        version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3
        pid: 0,
    };
    // Two __user_cap_data_struct (effective, permitted, inheritable): low and high 32 bits.
    let (low, high) = (keep as u32, (keep >> 32) as u32);
    let data = [low, low, 0, high, high, 0];
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

/// PTRACE_GETEVENTMSG: at a fork, vfork or clone stop, the new task's pid.
pub(crate) fn ptrace_event_message(pid: i32) -> Result<u64, i32> {
    let mut message = 0u64;
    // SAFETY: the kernel writes one unsigned long into `message`.
    unsafe {
        sys!(
            libc::SYS_ptrace,
            libc::PTRACE_GETEVENTMSG,
            pid,
            0,
            &mut message as *mut u64
        )
    }
    .map(|_| message)
}

/// User + system time, in microseconds, of every child of this process that has ended and
/// been waited for (and of the children they waited for in turn).
pub(crate) fn children_cpu_us() -> u64 {
    // SAFETY: rusage is plain data; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes one rusage into `usage`.
    let _ = unsafe {
        sys!(
            libc::SYS_getrusage,
            libc::RUSAGE_CHILDREN,
            &mut usage as *mut libc::rusage
        )
    };
    let micros = |t: libc::timeval| (t.tv_sec.max(0) as u64) * 1_000_000 + t.tv_usec.max(0) as u64;
    micros(usage.ru_utime) + micros(usage.ru_stime)
}

/// How many System V IPC objects (shared memory segments, semaphore sets, message queues)
/// exist in this process's IPC namespace. The *_INFO commands need no permission.
pub(crate) fn ipc_objects() -> u64 {
    // Large enough for struct shm_info, seminfo and msginfo; the counts read are ints.
    const SHM_INFO: i32 = 14; // linux/shm.h (libc does not name it)
    let mut buf = [0u64; 16];
    let mut count = 0u64;
    // shm_info.used_ids is its first int.
    // SAFETY: SHM_INFO writes a struct shm_info (under 128 bytes) into buf.
    if unsafe { sys!(libc::SYS_shmctl, 0, SHM_INFO, buf.as_mut_ptr()) }.is_ok() {
        count += u64::from(buf[0] as u32);
    }
    buf = [0; 16];
    // msginfo.msgpool (its first int) counts the queues for MSG_INFO.
    // SAFETY: MSG_INFO writes a struct msginfo into buf.
    if unsafe { sys!(libc::SYS_msgctl, 0, libc::MSG_INFO, buf.as_mut_ptr()) }.is_ok() {
        count += u64::from(buf[0] as u32);
    }
    buf = [0; 16];
    // seminfo.semusz, its eighth int, counts the sets for SEM_INFO.
    // SAFETY: SEM_INFO writes a struct seminfo (ten ints) into buf.
    if unsafe { sys!(libc::SYS_semctl, 0, 0, libc::SEM_INFO, buf.as_mut_ptr()) }.is_ok() {
        let ints: [u32; 10] = std::array::from_fn(|i| {
            let word = buf[i / 2];
            (if i % 2 == 0 { word } else { word >> 32 }) as u32
        });
        count += u64::from(ints[7]);
    }
    count
}

/// Enforces the Landlock ruleset `ruleset` on this thread (no_new_privs must be set).
pub(crate) fn landlock_restrict_self(ruleset: i32) -> Res {
    // SAFETY: integer arguments only.
    unsafe { sys!(libc::SYS_landlock_restrict_self, ruleset, 0) }
}
