//! The supervisor: the process the runner creates for each run (PID 1 of a fresh PID namespace
//! where possible). It starts the program, traces it (trace.rs), relays how it ended through
//! the report pipe, and exits, which takes every remaining descendant with it. It shares the
//! runner's memory (see raw.rs), so everything here uses raw syscalls only: no allocation, no
//! locks, no errno, no panics.

use std::mem::{size_of, zeroed};
use std::ptr;

use crate::plan::{Isolation, Plan, FD_CGROUP, FD_REPORT, FD_STDERR, FD_STDIN, FD_STDOUT};
use crate::raw;
use crate::trace::{open_status, Watch};

pub(crate) const KIND_FAILED: u32 = 1;
pub(crate) const KIND_FINISHED: u32 = 2;
pub(crate) const FLAG_TRACED: u32 = 1;
pub(crate) const FLAG_REFUSED: u32 = 2;
pub(crate) const FLAG_TOO_MANY: u32 = 4;
/// Some task of the run was killed by SIGXCPU / SIGXFSZ (its CPU or file-size limit).
pub(crate) const FLAG_CPU_LIMIT: u32 = 8;
pub(crate) const FLAG_FILE_LIMIT: u32 = 16;

/// Where the start failed, for `SpawnError` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Stage {
    Setup = 1,
    Clone = 2,
    Stdio = 3,
    Workdir = 4,
    Cgroup = 5,
    Limits = 6,
    Exec = 7,
}

impl Stage {
    pub(crate) fn from_u32(n: u32) -> Stage {
        [
            Stage::Setup,
            Stage::Clone,
            Stage::Stdio,
            Stage::Workdir,
            Stage::Cgroup,
            Stage::Limits,
        ]
        .into_iter()
        .find(|s| *s as u32 == n)
        .unwrap_or(Stage::Exec)
    }
}

/// The one record the supervisor writes to the report pipe before exiting.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Report {
    pub kind: u32,
    pub stage: u32,
    pub errno: i32,
    /// The program's wait status.
    pub status: i32,
    pub flags: u32,
    pub _pad: u32,
    pub utime_us: u64,
    pub stime_us: u64,
    pub maxrss_kb: u64,
    /// VmHWM and VmPeak of the program's main process just before it exited (0 if unknown).
    pub hwm_kb: u64,
    pub peak_vm_kb: u64,
}

impl Report {
    pub(crate) fn parse(bytes: &[u8]) -> Option<Report> {
        (bytes.len() >= size_of::<Report>())
            // SAFETY: Report is plain old data and the buffer holds enough bytes.
            .then(|| unsafe { ptr::read_unaligned(bytes.as_ptr().cast::<Report>()) })
    }

    fn send(&self) {
        // SAFETY: Report is repr(C) plain data; viewing it as bytes is sound.
        let bytes = unsafe {
            std::slice::from_raw_parts((self as *const Report).cast::<u8>(), size_of::<Report>())
        };
        // SAFETY: a plain write of our own buffer.
        unsafe { raw::write_all(FD_REPORT, bytes) };
    }
}

/// State the program child shares with the supervisor (CLONE_VM): written by the child before
/// exec, read by the supervisor once the vfork-style clone returns.
#[repr(C)]
struct Shared {
    plan: *const Plan,
    stage: u32,
    errno: i32,
    traced: bool,
    pid_text: [u8; 24],
    pid_len: usize,
}

/// Entry point of the supervisor process. Never returns.
///
/// # Safety
/// Must run only as the supervisor: a fresh clone of the runner (sharing its memory when
/// `raw::SHARES_MEMORY`), with `plan` alive until it exits.
pub(crate) unsafe fn main(plan: &Plan) -> ! {
    // Signals stay blocked for good: a handler of the runner must never run here.
    raw::mask_all(true);
    raw::default_signal(libc::SIGCHLD);
    if let Err(e) = compact_fds(&plan.fds) {
        fail(Stage::Setup, e);
    }
    raw::setpgid_self();
    let _ = raw::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as usize, 0);
    if plan.isolation == Isolation::Plain && raw::getppid() != plan.runner_pid {
        raw::exit(1); // the runner died before we could notice
    }

    let mut shared = Shared {
        plan,
        stage: 0,
        errno: 0,
        traced: false,
        pid_text: [0; 24],
        pid_len: 0,
    };
    let mut stack = [0u8; 32 * 1024];
    let top = stack.as_mut_ptr().add(stack.len()) as usize & !15;
    // glibc's clone wrapper touches errno only when it fails, and then the run is over anyway.
    let pid = libc::clone(
        program_child,
        top as *mut libc::c_void,
        libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
        (&mut shared as *mut Shared).cast(),
    );
    for fd in [FD_STDIN, FD_STDOUT, FD_STDERR] {
        raw::close(fd);
    }
    if pid < 0 {
        fail(Stage::Clone, libc::EAGAIN);
    }
    if shared.stage != 0 {
        let mut usage = zeroed();
        let _ = raw::wait_any(pid, &mut usage);
        fail(Stage::from_u32(shared.stage), shared.errno);
    }
    let mut report = Report {
        kind: KIND_FINISHED,
        ..Report::default()
    };
    let mut watch = Watch {
        main: pid,
        status_fd: -1,
        tasks: 1,
        options_set: false,
        report: &mut report,
    };
    if shared.traced {
        watch.report.flags |= FLAG_TRACED;
        watch.status_fd = open_status(&shared.pid_text[..shared.pid_len]);
    }
    watch.run();
    report.send();
    raw::exit(0);
}

unsafe fn fail(stage: Stage, err: i32) -> ! {
    Report {
        kind: KIND_FAILED,
        stage: stage as u32,
        errno: err,
        ..Report::default()
    }
    .send();
    raw::exit(0);
}

/// Keeps exactly the run's descriptors, renumbered to FD_STDIN.. in order and close-on-exec,
/// and closes everything else the runner had open (other runs' pipes above all: holding their
/// write ends would keep their readers waiting for our exit).
unsafe fn compact_fds(fds: &[i32]) -> Result<(), i32> {
    let above = fds.iter().copied().max().unwrap_or(2).max(FD_CGROUP + 4) + 1;
    let mut moved = [0i32; 8];
    for (slot, &fd) in moved.iter_mut().zip(fds) {
        *slot = raw::dup_above(fd, above)? as i32;
    }
    for (i, &fd) in moved.iter().take(fds.len()).enumerate() {
        raw::dup3(fd, FD_STDIN + i as i32, libc::O_CLOEXEC)?;
    }
    let first_free = FD_STDIN + fds.len() as i32;
    if raw::close_from(first_free).is_err() {
        // Kernels before 5.9: close what an ordinary descriptor table can hold.
        for fd in first_free..65_536 {
            raw::close(fd);
        }
    }
    Ok(())
}

/// The program child: shares the supervisor's memory until exec (vfork semantics), sets up
/// stdio, cwd, signals, cgroup, limits and tracing, then execs. Failures are left in `Shared`.
extern "C" fn program_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: arg points to the supervisor's Shared, alive while we run (CLONE_VFORK).
    unsafe {
        let shared = &mut *arg.cast::<Shared>();
        let plan = &*shared.plan;
        if let Err((stage, err)) = prepare_child(plan, shared) {
            shared.stage = stage as u32;
            shared.errno = err;
            raw::exit(127);
        }
        let err = raw::execve(plan.exe.as_ptr(), plan.argv.as_ptr(), plan.envp.as_ptr());
        shared.stage = Stage::Exec as u32;
        shared.errno = err;
        raw::exit(127);
    }
}

unsafe fn prepare_child(plan: &Plan, shared: &mut Shared) -> Result<(), (Stage, i32)> {
    let at = |stage: Stage| move |err: i32| (stage, err);
    for (from, to) in [(FD_STDIN, 0), (FD_STDOUT, 1), (FD_STDERR, 2)] {
        raw::dup3(from, to, 0).map_err(at(Stage::Stdio))?;
    }
    raw::chdir(&plan.workdir).map_err(at(Stage::Workdir))?;
    reset_signals();
    for i in 0..plan.cgroup_fds as i32 {
        if !raw::write_all(FD_CGROUP + i, b"0") {
            return Err((Stage::Cgroup, libc::EIO));
        }
    }
    for (resource, value) in &plan.rlimits {
        raw::setrlimit(*resource, value).map_err(at(Stage::Limits))?;
    }
    let _ = raw::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0);
    shared.pid_len = raw::readlink(c"/proc/self", &mut shared.pid_text).unwrap_or(0);
    if plan.trace && shared.pid_len > 0 && raw::ptrace(libc::PTRACE_TRACEME, 0, 0, 0).is_ok() {
        shared.traced = true;
        let program = libc::sock_fprog {
            len: plan.filter.len() as u16,
            filter: plan.filter.as_ptr() as *mut libc::sock_filter,
        };
        // Without the filter we still learn the peak memory; only refusals go unseen.
        let _ = raw::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER as usize,
            &program as *const libc::sock_fprog as usize,
        );
    }
    Ok(())
}

/// Default dispositions and an empty mask. Handlers are reset by exec anyway, but ignored
/// signals survive it: the runner ignores SIGPIPE (Rust does), so a program writing to a closed
/// pipe would not die as usual.
unsafe fn reset_signals() {
    for sig in 1..32 {
        if sig != libc::SIGKILL && sig != libc::SIGSTOP {
            raw::default_signal(sig);
        }
    }
    raw::mask_all(false);
}
