//! The program child: created by the plain supervisor or the box keeper with CLONE_VM (it
//! borrows its creator's memory until exec, on a stack of its own), it connects stdio, enters the working folder, joins the cgroup, takes its limits,
//! drops every privilege (the box's uid and gid when the runner is root, no capabilities, no
//! new privileges), asks to be traced, installs the seccomp filter and execs. A failure is
//! left in the shared record for the creator to report. Raw system calls only.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use crate::plan::{View, FD_CGROUP, FD_LANDLOCK, FD_STDERR, FD_STDIN, FD_STDOUT};
use crate::plan::{FLAG_LANDLOCK, FLAG_MUST_TRACE, FLAG_NO_EXIT_STOP, FLAG_SEIZE, FLAG_TRACE};
use crate::raw;
use crate::report::{Report, Stage};
use crate::trace::Alive;

/// Stack the program child runs on until it execs.
const STACK: usize = 32 * 1024;

/// The creator decided the child is traced (seized), or that it is not.
const GO_TRACED: u32 = 1;
const GO_UNTRACED: u32 = 2;

/// Where a program child starts from: its stack, and the record it shares with its creator
/// (CLONE_VM), written by the child before exec (or before it gives up). The creator keeps it
/// alive and in place until the run is over (the child may use it until it execs).
#[repr(C)]
pub(crate) struct Launchpad {
    plan: *const View<'static>,
    stage: AtomicU32,
    errno: AtomicI32,
    /// Seizing: 0 until the creator has tried to seize the child, then GO_TRACED or
    /// GO_UNTRACED (a futex the child waits on). Vfork: whether the child's TRACEME worked.
    go: AtomicU32,
    stack: [MaybeUninit<u8>; STACK],
}

impl Launchpad {
    pub(crate) fn new() -> Launchpad {
        Launchpad {
            plan: std::ptr::null(),
            stage: AtomicU32::new(0),
            errno: AtomicI32::new(0),
            go: AtomicU32::new(0),
            stack: [MaybeUninit::uninit(); STACK],
        }
    }

    /// Starts the program described by `plan` and returns its pid and whether it is traced.
    /// The caller has put the program's stdin, stdout and stderr at FD_STDIN.., and its
    /// cgroup.procs files at FD_CGROUP.., all close-on-exec, and keeps `plan` and this
    /// launchpad unchanged until the program has exec'd (in practice: until the run is over).
    ///
    /// With FLAG_SEIZE the child runs alongside its creator, which seizes it with every trace
    /// option set before letting it exec: no tracing stop at exec. Otherwise (a user namespace,
    /// where the creator may not seize a child sharing its non-dumpable memory) the creator
    /// waits (CLONE_VFORK) while the child asks to be traced itself, and the first exec stops.
    pub(crate) fn start(&mut self, plan: &View<'_>) -> Result<(libc::pid_t, bool), (Stage, i32)> {
        let seize = plan.flags & FLAG_SEIZE != 0;
        self.plan = (plan as *const View<'_>).cast();
        self.stage.store(0, Ordering::Relaxed);
        self.go.store(0, Ordering::Relaxed);
        let top = (self.stack.as_mut_ptr() as usize + STACK) & !15;
        let vfork = if seize { 0 } else { libc::CLONE_VFORK };
        // SAFETY: the child runs `program_child` on this launchpad's stack, which the caller
        // keeps alive and nothing else uses, and touches only this launchpad and the plan.
        // glibc's clone wrapper writes the calling thread's errno only when clone fails, and no
        // child exists then.
        let pid = unsafe {
            libc::clone(
                program_child,
                top as *mut libc::c_void,
                libc::CLONE_VM | vfork | libc::SIGCHLD,
                (self as *mut Launchpad).cast(),
            )
        };
        if pid < 0 {
            return Err((Stage::Clone, libc::EAGAIN));
        }
        if seize {
            let options = crate::trace::options(exit_stop(plan));
            let traced = plan.flags & FLAG_TRACE != 0
                && raw::ptrace_simple(libc::PTRACE_SEIZE, pid, options).is_ok();
            self.go.store(
                if traced { GO_TRACED } else { GO_UNTRACED },
                Ordering::Release,
            );
            raw::futex_wake(&self.go);
            return Ok((pid, traced));
        }
        if let Some(failure) = self.failure() {
            // SAFETY: rusage is plain data; all zeroes is a valid value.
            let mut usage = unsafe { std::mem::zeroed() };
            let _ = raw::wait_any(pid, 0, &mut usage);
            return Err(failure);
        }
        Ok((pid, self.go.load(Ordering::Acquire) == GO_TRACED))
    }

    /// Whether the start failed after all (the child gave up before or at exec), once its
    /// main process has ended.
    pub(crate) fn failure(&self) -> Option<(Stage, i32)> {
        match self.stage.load(Ordering::Acquire) {
            0 => None,
            stage => Some((Stage::from_u32(stage), self.errno.load(Ordering::Relaxed))),
        }
    }
}

/// Starts the program of `plan` from `pad`, calls `started` (to close the creator's copies of
/// its descriptors), and follows it to the end of its main process (trace.rs). Returns the
/// report, whether processes of the run may be left, and the traced tasks still alive.
pub(crate) fn run_to_end(
    plan: &View<'_>,
    pad: &mut Launchpad,
    proc_dir: i32,
    started: impl FnOnce(),
) -> (Report, bool, Alive) {
    let start = pad.start(plan);
    started();
    let (pid, traced) = match start {
        Ok(ok) => ok,
        Err((stage, errno)) => return (Report::failed(stage, errno), false, Alive::new()),
    };
    let seized = traced && plan.flags & FLAG_SEIZE != 0;
    let (report, left, alive) =
        crate::trace::follow(pid, traced, seized, exit_stop(plan), proc_dir);
    match pad.failure() {
        Some((stage, errno)) => (Report::failed(stage, errno), left, alive),
        None => (report, left, alive),
    }
}

/// Whether the traced program's main process stops at its exit (see trace::options).
fn exit_stop(plan: &View<'_>) -> bool {
    plan.flags & FLAG_NO_EXIT_STOP == 0
}

extern "C" fn program_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: arg is the creator's Launchpad, alive and left alone while we use it.
    let pad = unsafe { &*arg.cast::<Launchpad>() };
    // SAFETY: the plan outlives our exec (see Launchpad::start).
    let plan = unsafe { &*pad.plan };
    let fail = |stage: Stage, err: i32| -> ! {
        pad.errno.store(err, Ordering::Relaxed);
        pad.stage.store(stage as u32, Ordering::Release);
        raw::exit(127);
    };
    if let Err((stage, err)) = prepare(pad, plan) {
        fail(stage, err);
    }
    // SAFETY: argv and envp are null-terminated arrays of C strings inside the plan.
    let exec = || unsafe { raw::execve(plan.exe.as_ptr(), plan.argv, plan.envp) };
    let mut err = exec();
    // ETXTBSY: the program's file is still open for writing somewhere. A process the runner
    // forked while one of its threads was writing that file (a build being published, a test
    // writing its program) holds the descriptor until its own exec, milliseconds later: that
    // is waited out, for at most two seconds (poll, which the filter allows, as the sleep).
    let mut waited_ms = 0;
    while err == libc::ETXTBSY && waited_ms < 2000 {
        let _ = raw::poll(&mut [], 5);
        waited_ms += 5;
        err = exec();
    }
    fail(Stage::Exec, err);
}

fn prepare(pad: &Launchpad, plan: &View<'_>) -> Result<(), (Stage, i32)> {
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
    if plan.flags & FLAG_LANDLOCK != 0 {
        raw::landlock_restrict_self(FD_LANDLOCK).map_err(at(Stage::Filter))?;
    }
    let traced = if plan.flags & FLAG_SEIZE != 0 {
        while pad.go.load(Ordering::Acquire) == 0 {
            raw::futex_wait(&pad.go, 0);
        }
        pad.go.load(Ordering::Acquire) == GO_TRACED
    } else {
        let traced = plan.flags & FLAG_TRACE != 0 && raw::ptrace_traceme().is_ok();
        let go = if traced { GO_TRACED } else { GO_UNTRACED };
        pad.go.store(go, Ordering::Release);
        traced
    };
    // With a tracer, big allocations may stop in it; without one such a rule would fail them
    // (a box's keeper holds the rule itself: there an untraced program must not start).
    if !traced && plan.flags & FLAG_MUST_TRACE != 0 {
        return Err((Stage::Trace, libc::EPERM));
    }
    let filter = if traced {
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
