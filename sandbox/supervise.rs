//! The plain supervisor, for machines without the namespaces a box needs: a process the runner
//! creates per run that shares its memory (CLONE_VM, like posix_spawn's vfork, but the runner
//! goes on running), starts the program (child.rs), traces it (trace.rs), writes one report to
//! a pipe and exits, which ends every traced descendant (PTRACE_O_EXITKILL). The runner ends
//! the rest through the run's process group or cgroup. Because it shares the runner's memory,
//! everything here uses raw system calls only, and the runner's memory is non-dumpable (no
//! program of the same user can read it through /proc).

use std::io;
use std::os::fd::RawFd;
use std::path::PathBuf;

use crate::child::{run_to_end, Launchpad};
use crate::plan::{Plan, View, FD_LANDLOCK, FD_REPORT, FD_STDERR, FD_STDIN, FD_STDOUT};
use crate::plan::{FLAG_CHECK_PARENT, MAX_CGROUP_FDS};
use crate::report::{Report, Stage};
use crate::{raw, registry};

/// What the supervisor reads from the runner's memory; boxed so its address is stable.
struct Args {
    plan: *mut u8,
    plan_len: usize,
    /// stdin, stdout, stderr, then cgroup.procs descriptors, in the runner.
    fds: [RawFd; 3 + MAX_CGROUP_FDS],
    nfds: usize,
    /// The report pipe's write end, in the runner.
    report: RawFd,
    /// The Landlock ruleset the program enforces on itself, in the runner (-1: none).
    landlock: RawFd,
}

/// A started supervisor. Dropping it before `end` (a panic in the runner) kills and reaps the
/// supervisor first: it reads memory this value owns.
pub(crate) struct Started {
    pub pid: libc::pid_t,
    cgroup: Option<PathBuf>,
    reaped: bool,
    registration: registry::Registration,
    _args: Box<Args>,
    _plan: Plan,
}

/// Starts the supervisor for `plan` with the run's descriptors (stdin, stdout, stderr,
/// cgroup.procs files), the report pipe's write end and the Landlock ruleset (-1: none).
/// Errors are clone's.
pub(crate) fn start(
    mut plan: Plan,
    fds: &[RawFd],
    (report, landlock): (RawFd, RawFd),
    cgroup: Option<PathBuf>,
) -> io::Result<Started> {
    let bytes = plan.bytes_mut();
    let mut args = Box::new(Args {
        plan: bytes.as_mut_ptr(),
        plan_len: bytes.len(),
        fds: [-1; 3 + MAX_CGROUP_FDS],
        nfds: fds.len().min(3 + MAX_CGROUP_FDS),
        report,
        landlock,
    });
    args.fds[..args.nfds].copy_from_slice(&fds[..args.nfds]);
    extern "C" fn entry(args: *mut libc::c_void) -> libc::c_int {
        // SAFETY: args is the Box<Args> of the Started that reaps us before freeing it.
        main(unsafe { &*args.cast::<Args>() })
    }
    // SAFETY: the child runs only `main`, which uses raw system calls on data that stays alive
    // (args, the plan, this thread's supervisor stack) until `end` or `drop` has reaped it.
    let pid = unsafe { spawn(entry, (&mut *args as *mut Args).cast()) };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    let registration = registry::register(registry::Target::Plain {
        pid,
        cgroup: cgroup.clone(),
    });
    Ok(Started {
        pid,
        cgroup,
        reaped: false,
        registration,
        _args: args,
        _plan: plan,
    })
}

impl Started {
    /// Kills the run if `kill`, waits for the supervisor to end, makes sure nothing of the run
    /// is left, and reaps the supervisor. Returns the supervisor's rusage.
    pub(crate) fn end(mut self, kill: bool) -> libc::rusage {
        if kill {
            registry::kill_tree(self.pid, self.cgroup.as_deref());
        }
        // Wait without reaping: while the supervisor is a zombie its pid (our process group id)
        // cannot be reused, so signalling the group below cannot hit a stranger.
        // SAFETY: siginfo_t is plain data; waitid fills it.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            while libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            ) != 0
                && crate::sys::errno() == libc::EINTR
            {}
        }
        registry::kill_tree(self.pid, self.cgroup.as_deref());
        self.registration.remove();
        let usage = reap(self.pid);
        self.reaped = true;
        wait_group_gone(self.pid);
        usage
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if !self.reaped {
            registry::kill_tree(self.pid, self.cgroup.as_deref());
            reap(self.pid);
        }
    }
}

fn reap(pid: libc::pid_t) -> libc::rusage {
    // SAFETY: rusage is plain data; wait4 on our own child fills it.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let mut status = 0;
        while libc::wait4(pid, &mut status, 0, &mut usage) < 0 && crate::sys::errno() == libc::EINTR
        {
        }
        usage
    }
}

/// Gives killed group members a moment to disappear, so callers see no leftovers.
fn wait_group_gone(pgid: libc::pid_t) {
    let until = std::time::Instant::now() + std::time::Duration::from_millis(200);
    while raw::kill(-pgid, 0).is_ok() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
}

/// Runs `entry(arg)` in a new process and returns its pid (or -1). With `raw::SHARES_MEMORY`
/// the process shares our memory and runs on this thread's supervisor stack: no page tables
/// are copied, which is most of a fork's cost.
///
/// # Safety
/// `entry` must use raw system calls only (it shares our memory, locks and TLS), and `arg`
/// must stay valid until the process has been reaped.
unsafe fn spawn(
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    arg: *mut libc::c_void,
) -> libc::pid_t {
    if !raw::SHARES_MEMORY {
        // SAFETY: a plain fork; the child only calls `entry`, then exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            raw::exit(entry(arg));
        }
        return pid;
    }
    STACK.with(|stack| {
        // SAFETY: the child runs `entry` on this thread's supervisor stack, which no other
        // supervisor uses while this one lives (a thread runs one program at a time).
        unsafe { libc::clone(entry, stack.top(), libc::CLONE_VM | libc::SIGCHLD, arg) }
    })
}

thread_local! {
    /// The supervisor's stack: one per runner thread, as a thread runs one program at a time.
    static STACK: Stack = Stack::new();
}

/// An mmap'd stack with a guard page below it.
struct Stack {
    base: *mut libc::c_void,
}

const STACK_SIZE: usize = 512 * 1024;

impl Stack {
    fn new() -> Stack {
        // SAFETY: a fresh anonymous mapping; the guard page is inside it.
        unsafe {
            let base = libc::mmap(
                std::ptr::null_mut(),
                STACK_SIZE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            );
            assert!(base != libc::MAP_FAILED, "cannot map a supervisor stack");
            libc::mprotect(base, 4096, libc::PROT_NONE);
            Stack { base }
        }
    }

    fn top(&self) -> *mut libc::c_void {
        // SAFETY: one past the end of our own mapping.
        unsafe { self.base.cast::<u8>().add(STACK_SIZE).cast() }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: unmapping our own mapping; no supervisor runs on it any more (Started reaps
        // its supervisor before the thread can exit).
        unsafe { libc::munmap(self.base, STACK_SIZE) };
    }
}

/// The supervisor process. Never returns.
fn main(args: &Args) -> ! {
    // Signals stay blocked for good: a handler of the runner must never run here.
    raw::mask_all(true);
    crate::child::default_signals();
    if let Err(e) = compact_fds(&args.fds[..args.nfds], args.report, args.landlock) {
        fail(Stage::Setup, e);
    }
    raw::setpgid_self();
    let _ = raw::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as usize, 0);
    let _ = raw::prctl(libc::PR_SET_DUMPABLE, 0, 0);
    // SAFETY: the plan buffer is owned by the Started that reaps us, and the runner does not
    // touch it meanwhile.
    let Some(plan) = (unsafe { View::fix_up(args.plan, args.plan_len) }) else {
        fail(Stage::Setup, libc::EINVAL);
    };
    if plan.flags & FLAG_CHECK_PARENT != 0 && raw::getppid() != plan.runner_pid {
        raw::exit(1); // the runner died before we could notice
    }
    // Orphans of the run come to us, so that all of it is reaped here and its CPU time counted
    // (see Alive::end_all).
    let _ = raw::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0);
    let mut pad = Launchpad::new();
    let (mut report, left, alive) = run_to_end(&plan, &mut pad, libc::AT_FDCWD, || {
        for fd in [FD_STDIN, FD_STDOUT, FD_STDERR] {
            // SAFETY: our own copies of the program's stdio; the program has its own.
            unsafe { raw::close(fd) };
        }
    });
    // A traced run's tasks are all known: end them and reap everything. An untraced run's
    // descendants may have left the process group; the runner ends those through the group or
    // the cgroup, and their CPU time is not known.
    let traced = report.flags & crate::report::FLAG_TRACED != 0;
    let ended_all = traced && report.kind == crate::report::KIND_FINISHED && alive.end_all();
    if report.kind == crate::report::KIND_FINISHED {
        report.tree_cpu_us = raw::children_cpu_us();
    }
    if left && !ended_all {
        report.flags |= crate::report::FLAG_LEFT;
    }
    raw::write_all(FD_REPORT, report.as_bytes());
    raw::exit(0);
}

fn fail(stage: Stage, err: i32) -> ! {
    raw::write_all(FD_REPORT, Report::failed(stage, err).as_bytes());
    raw::exit(0);
}

/// Keeps exactly the run's descriptors, renumbered to FD_STDIN.. in order (and the report
/// pipe to FD_REPORT, the Landlock ruleset, if any, to FD_LANDLOCK), close-on-exec, and closes
/// everything else the runner had open (other runs' pipes above all: holding their write ends
/// would keep their readers waiting).
fn compact_fds(fds: &[i32], report: i32, landlock: i32) -> Result<(), i32> {
    let fixed: &[(i32, i32)] = if landlock >= 0 {
        &[(report, FD_REPORT), (landlock, FD_LANDLOCK)]
    } else {
        &[(report, FD_REPORT)]
    };
    let above = fds
        .iter()
        .chain(fixed.iter().map(|(fd, _)| fd))
        .copied()
        .max()
        .unwrap_or(2)
        .max(FD_LANDLOCK)
        + 1;
    let mut moved = [0i32; 5 + MAX_CGROUP_FDS];
    let sources = fds.iter().chain(fixed.iter().map(|(fd, _)| fd));
    let targets = (0..fds.len())
        .map(|i| FD_STDIN + i as i32)
        .chain(fixed.iter().map(|&(_, target)| target));
    for (slot, &fd) in moved.iter_mut().zip(sources.clone()) {
        *slot = raw::dup_above(fd, above)? as i32;
    }
    for (&fd, target) in moved.iter().zip(targets) {
        // SAFETY: this process has its own descriptor table; the targets are ours to replace.
        unsafe { raw::dup3(fd, target, libc::O_CLOEXEC) }?;
    }
    let first_free = fixed.last().map_or(FD_REPORT, |&(_, target)| target) + 1;
    if FD_STDIN + (fds.len() as i32) < FD_REPORT {
        // SAFETY: numbers between the run's descriptors and the report pipe hold runner copies.
        let _ = unsafe { raw::close_range(FD_STDIN + fds.len() as i32, (FD_REPORT - 1) as u32) };
    }
    // SAFETY: everything above our run's descriptors belongs to the runner, whose copy stays.
    if unsafe { raw::close_range(first_free, u32::MAX) }.is_err() {
        // Kernels before 5.9: close what an ordinary descriptor table can hold.
        for fd in first_free..65_536 {
            // SAFETY: as above.
            unsafe { raw::close(fd) };
        }
    }
    Ok(())
}
