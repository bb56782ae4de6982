//! The program child: created by the plain supervisor or the box keeper with CLONE_VM |
//! CLONE_VFORK (it borrows its creator's memory and stack until exec, while the creator
//! waits), it connects stdio, enters the working folder, joins the cgroup, takes its limits,
//! drops every privilege (the box's uid and gid when the runner is root, no capabilities, no
//! new privileges), asks to be traced, installs the seccomp filter and execs. A failure is
//! left in the shared record for the creator to report. Raw system calls only.

use crate::plan::{View, FD_CGROUP, FD_STDERR, FD_STDIN, FD_STDOUT, FLAG_TRACE};
use crate::raw;
use crate::report::Stage;

/// The record the child shares with its creator (CLONE_VM): written by the child before exec
/// (or before it gives up), read by the creator once the vfork-style clone returns.
#[repr(C)]
struct Shared<'a, 'p> {
    plan: &'a View<'p>,
    stage: u32,
    errno: i32,
    traced: bool,
}

/// Starts the program described by `plan` and returns its pid and whether it is traced. The
/// caller has put the program's stdin, stdout and stderr at FD_STDIN.., and its cgroup.procs
/// files at FD_CGROUP.., all close-on-exec.
pub(crate) fn start(plan: &View<'_>) -> Result<(libc::pid_t, bool), (Stage, i32)> {
    let mut shared = Shared {
        plan,
        stage: 0,
        errno: 0,
        traced: false,
    };
    let mut stack = [0u8; 32 * 1024];
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    // SAFETY: the child runs `program_child` on `stack` (ours, alive until it execs or exits,
    // which CLONE_VFORK waits for) and touches only `shared`. glibc's clone wrapper writes the
    // calling thread's errno only when clone fails, and no child exists then.
    let pid = unsafe {
        libc::clone(
            program_child,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&mut shared as *mut Shared).cast(),
        )
    };
    if pid < 0 {
        return Err((Stage::Clone, libc::EAGAIN));
    }
    if shared.stage != 0 {
        // SAFETY: rusage is plain data; all zeroes is a valid value.
        let mut usage = unsafe { std::mem::zeroed() };
        let _ = raw::wait_any(pid, 0, &mut usage);
        return Err((Stage::from_u32(shared.stage), shared.errno));
    }
    Ok((pid, shared.traced))
}

extern "C" fn program_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: arg is the creator's Shared, alive while we run (CLONE_VFORK), and nothing else
    // touches it until we exec or exit.
    let shared = unsafe { &mut *arg.cast::<Shared>() };
    let plan = shared.plan;
    if let Err((stage, err)) = prepare(shared) {
        shared.stage = stage as u32;
        shared.errno = err;
        raw::exit(127);
    }
    // SAFETY: argv and envp are null-terminated arrays of C strings inside the plan.
    let err = unsafe { raw::execve(plan.exe.as_ptr(), plan.argv, plan.envp) };
    shared.stage = Stage::Exec as u32;
    shared.errno = err;
    raw::exit(127);
}

fn prepare(shared: &mut Shared<'_, '_>) -> Result<(), (Stage, i32)> {
    let plan = shared.plan;
    let at = |stage: Stage| move |err: i32| (stage, err);
    for (from, to) in [(FD_STDIN, 0), (FD_STDOUT, 1), (FD_STDERR, 2)] {
        // SAFETY: this process owns its descriptor table copy; 0-2 are replaced on purpose.
        unsafe { raw::dup3(from, to, 0) }.map_err(at(Stage::Stdio))?;
    }
    raw::chdir(plan.workdir).map_err(at(Stage::Workdir))?;
    // The creator reset every disposition to the default (handlers are reset by exec anyway,
    // but an ignored SIGPIPE would survive it); only its blocked mask is left to clear.
    raw::mask_all(false);
    for i in 0..plan.cgroup_fds as i32 {
        if !raw::write_all(FD_CGROUP + i, b"0") {
            return Err((Stage::Cgroup, libc::EIO));
        }
    }
    for limit in plan.rlimits {
        raw::setrlimit(limit.resource, &limit.as_libc()).map_err(at(Stage::Limits))?;
    }
    drop_privileges(plan.identity).map_err(at(Stage::Identity))?;
    raw::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0).map_err(at(Stage::Identity))?;
    if plan.flags & FLAG_TRACE != 0 && raw::ptrace_traceme().is_ok() {
        shared.traced = true;
    }
    // With a tracer, big allocations may stop in it; without one such a rule would fail them.
    let filter = if shared.traced {
        plan.traced_filter
    } else {
        plan.filter
    };
    if !filter.is_empty() {
        raw::seccomp(filter).map_err(at(Stage::Filter))?;
    }
    Ok(())
}

/// Takes `identity` (uid, gid) if given, with no supplementary groups, and gives up every
/// capability: the ambient set and the effective, permitted and inheritable sets. (In a user
/// namespace the box keeper has every capability there, and its children must not keep
/// them.) The bounding set can stay: with no_new_privs, set next, no exec can gain anything
/// from file capabilities or set-user-ID bits, which is all the bounding set limits.
fn drop_privileges(identity: Option<(u32, u32)>) -> Result<(), i32> {
    let _ = raw::prctl(
        libc::PR_CAP_AMBIENT,
        libc::PR_CAP_AMBIENT_CLEAR_ALL as usize,
        0,
    );
    if let Some((uid, gid)) = identity {
        raw::setgroups_none()?;
        raw::setresgid(gid)?;
        raw::setresuid(uid)?;
    }
    raw::drop_capabilities().map(|_| ())
}

/// Default dispositions for every signal, for a program's creator (its children inherit them).
/// Handlers are reset by exec anyway, but ignored signals survive it: the runner ignores
/// SIGPIPE (Rust does), so a program writing to a closed pipe would not die as usual.
pub(crate) fn default_signals() {
    for sig in 1..=64 {
        if sig != libc::SIGKILL && sig != libc::SIGSTOP {
            raw::default_signal(sig);
        }
    }
}
