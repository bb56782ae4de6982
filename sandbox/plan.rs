//! Everything a run needs after fork, prepared before it: C strings, pointer arrays, resource
//! limits, the seccomp filter and the descriptor layout. After fork only this read-only data and
//! raw syscalls are used, so no allocation or lock can be needed in the child.

use std::ffi::{CString, OsStr, OsString};
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Duration;

use crate::Limits;

/// Processes plus threads a judged program may have alive at once; more ends the run
/// (`End::ProcessLimit`) where tracing or a pids cgroup can tell.
pub(crate) const MAX_TASKS: u32 = 256;

/// mmap/mremap requests at least this large are watched for refusal (see `MLE rule` in lib.rs);
/// smaller refusals imply a peak address space within this distance of the limit.
pub(crate) const WATCHED_REQUEST: u64 = 4 << 20;

/// Descriptor numbers inside the supervisor after it compacts its table.
pub(crate) const FD_STDIN: RawFd = 3;
pub(crate) const FD_STDOUT: RawFd = 4;
pub(crate) const FD_STDERR: RawFd = 5;
pub(crate) const FD_REPORT: RawFd = 6;
pub(crate) const FD_CGROUP: RawFd = 7;
pub(crate) const MAX_CGROUP_FDS: usize = 2;

/// Where the supervisor is created: its own PID namespace (PID 1 there) or a plain child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isolation {
    PidNamespace { user_namespace: bool },
    Plain,
}

pub(crate) struct Plan {
    pub exe: CString,
    pub workdir: CString,
    pub argv: Vec<*const libc::c_char>,
    pub envp: Vec<*const libc::c_char>,
    /// Source descriptors in the runner: stdin, stdout, stderr, report, then cgroup.procs files.
    pub fds: Vec<RawFd>,
    pub cgroup_fds: usize,
    pub rlimits: Vec<(libc::__rlimit_resource_t, libc::rlimit)>,
    pub isolation: Isolation,
    /// Empty when allocation tracing is off.
    pub filter: Vec<libc::sock_filter>,
    pub trace: bool,
    pub runner_pid: libc::pid_t,
    // Owners of the memory the pointer arrays point into.
    _strings: Vec<CString>,
}

pub(crate) struct PlanInput<'a> {
    pub exe: &'a Path,
    pub argv: &'a [OsString],
    pub workdir: &'a Path,
    pub fds: Vec<RawFd>,
    pub limits: &'a Limits,
    pub isolation: Isolation,
    pub trace: bool,
    pub cap_processes_by_rlimit: bool,
}

impl Plan {
    /// Fails only if a string contains a NUL byte (the error names which one).
    pub(crate) fn new(input: PlanInput<'_>) -> Result<Plan, String> {
        let exe = cstring(input.exe.as_os_str())?;
        let workdir = cstring(input.workdir.as_os_str())?;
        let args: Vec<CString> = input
            .argv
            .iter()
            .map(|a| cstring(a))
            .collect::<Result<_, _>>()?;
        let env: Vec<CString> = minimal_environment()
            .iter()
            .map(|e| cstring(e))
            .collect::<Result<_, _>>()?;
        let argv = null_terminated(&args);
        let envp = null_terminated(&env);
        let cgroup_fds = input.fds.len().saturating_sub(4).min(MAX_CGROUP_FDS);
        Ok(Plan {
            exe,
            workdir,
            argv,
            envp,
            fds: input.fds,
            cgroup_fds,
            rlimits: rlimits(input.limits, input.cap_processes_by_rlimit),
            isolation: input.isolation,
            filter: if input.trace {
                allocation_filter()
            } else {
                Vec::new()
            },
            trace: input.trace,
            // SAFETY: getpid has no preconditions.
            runner_pid: unsafe { libc::getpid() },
            _strings: args.into_iter().chain(env).collect(),
        })
    }
}

fn cstring(s: &OsStr) -> Result<CString, String> {
    CString::new(s.as_bytes()).map_err(|_| format!("{:?} contains a NUL byte", s))
}

fn null_terminated(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect()
}

/// PATH, HOME and LANG from the runner's environment; nothing else reaches the program.
fn minimal_environment() -> Vec<OsString> {
    ["PATH", "HOME", "LANG"]
        .iter()
        .filter_map(|key| {
            std::env::var_os(key).map(|value| {
                let mut entry = OsString::from(key);
                entry.push("=");
                entry.push(value);
                entry
            })
        })
        .collect()
}

fn rlimits(limits: &Limits, cap_processes: bool) -> Vec<(libc::__rlimit_resource_t, libc::rlimit)> {
    // CPU seconds are whole; the wall clock is the precise limit, this is the backstop that
    // still holds if the runner itself is stopped. Soft sends SIGXCPU, hard SIGKILL.
    let cpu = cpu_backstop_seconds(limits.time);
    let file = limits.output_bytes.saturating_mul(4).max(1 << 20);
    let mut out = vec![
        (libc::RLIMIT_CPU, (cpu, cpu + 1)),
        (libc::RLIMIT_FSIZE, (file, file)),
        (libc::RLIMIT_CORE, (0, 0)),
        // Judges let the stack use the whole memory limit (deep recursion is normal in contest
        // code): an unlimited stack is bounded by RLIMIT_AS below, and leaves threads glibc's
        // small default stacks (a finite RLIMIT_STACK would be every thread's reservation).
        (libc::RLIMIT_STACK, (u64::MAX, u64::MAX)),
    ];
    if limits.memory_bytes > 0 {
        out.push((libc::RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes)));
    }
    if cap_processes {
        let n = u64::from(MAX_TASKS);
        out.push((libc::RLIMIT_NPROC, (n, n)));
    }
    out.into_iter()
        .map(|(resource, (soft, hard))| (resource, within_hard_limit(resource, soft, hard)))
        .collect()
}

/// `soft`/`hard` lowered to the runner's own hard limit, which an unprivileged process cannot
/// raise (u64::MAX stands for unlimited).
fn within_hard_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> libc::rlimit {
    let mut current = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: getrlimit fills the struct we pass.
    unsafe { libc::getrlimit(resource, &mut current) };
    let as_rlim = |v: u64| {
        if v == u64::MAX {
            libc::RLIM_INFINITY
        } else {
            v as libc::rlim_t
        }
    };
    let cap = current.rlim_max;
    libc::rlimit {
        rlim_cur: as_rlim(soft).min(cap),
        rlim_max: as_rlim(hard).min(cap),
    }
}

fn cpu_backstop_seconds(time: Duration) -> u64 {
    time.as_secs() + 1
}

/// A classic-BPF seccomp program: mmap with a length of at least WATCHED_REQUEST and mremap
/// with a new size of at least WATCHED_REQUEST go to the tracer (SECCOMP_RET_TRACE);
/// everything else is allowed.
/// Other architectures' system calls (e.g. 32-bit compat) are allowed: tracing only sharpens
/// the MLE verdict, it never enforces anything.
fn allocation_filter() -> Vec<libc::sock_filter> {
    const LD_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RET: u16 = 0x06; // BPF_RET | BPF_K
    const ALLOW: u32 = 0x7fff_0000;
    const TRACE: u32 = 0x7ff0_0000;
    let op = |code, jt, jf, k| libc::sock_filter { code, jt, jf, k };
    // seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (low word first: little endian).
    let lo = |arg: u32| 16 + 8 * arg;
    let hi = |arg: u32| 16 + 8 * arg + 4;
    let watched = WATCHED_REQUEST as u32;
    vec![
        op(LD_ABS, 0, 0, 4),
        op(JEQ, 0, 11, native_audit_arch()), // -> ALLOW
        op(LD_ABS, 0, 0, 0),
        op(JEQ, 0, 4, libc::SYS_mmap as u32), // -> mremap check
        op(LD_ABS, 0, 0, hi(1)),
        op(JEQ, 0, 8, 0), // -> TRACE
        op(LD_ABS, 0, 0, lo(1)),
        op(JGE, 6, 5, watched),                 // -> TRACE : ALLOW
        op(JEQ, 0, 4, libc::SYS_mremap as u32), // -> ALLOW
        op(LD_ABS, 0, 0, hi(2)),
        op(JEQ, 0, 3, 0), // -> TRACE
        op(LD_ABS, 0, 0, lo(2)),
        op(JGE, 1, 0, watched), // -> TRACE : ALLOW
        op(RET, 0, 0, ALLOW),
        op(RET, 0, 0, TRACE),
    ]
}

/// Whether this build knows its architecture's seccomp audit value (tracing needs it).
pub(crate) const TRACING_SUPPORTED: bool =
    cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

fn native_audit_arch() -> u32 {
    if cfg!(target_arch = "aarch64") {
        0xC000_00B7
    } else {
        0xC000_003E
    }
}
