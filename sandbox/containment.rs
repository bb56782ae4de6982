//! Which mechanism keeps a run's processes together on this machine (probed once), starting
//! the supervisor inside it, and killing runs: one at its end, or all of them on Ctrl-C.

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::cgroup::{self, CgroupVersion, Cgroups};
use crate::plan::{Isolation, Plan};
use crate::{raw, supervise};

/// How the runner makes sure no descendant of a judged program outlives its case, strongest
/// first. `containment()` says which one `run` uses here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Containment {
    /// Each run has its own PID namespace; ending its first process ends every process in it.
    PidNamespace,
    /// Each run's processes share a cgroup, which is emptied with SIGKILL at the end.
    Cgroup,
    /// The run is a process group; a descendant that calls setsid() can escape (unless it is
    /// traced, see the crate docs), and forks are capped only for non-root users.
    ProcessGroup,
}

impl fmt::Display for Containment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Containment::PidNamespace => "PID namespace",
            Containment::Cgroup => "cgroup",
            Containment::ProcessGroup => "process group",
        })
    }
}

pub(crate) struct Probe {
    pub pid_namespace: Option<Isolation>,
    pub cgroups: Option<Cgroups>,
}

pub(crate) fn probe() -> &'static Probe {
    static PROBE: OnceLock<Probe> = OnceLock::new();
    PROBE.get_or_init(|| Probe {
        pid_namespace: probe_pid_namespace(),
        cgroups: Cgroups::probe(),
    })
}

impl Probe {
    pub(crate) fn best(&self) -> Containment {
        if self.pid_namespace.is_some() {
            Containment::PidNamespace
        } else if self.cgroups.is_some() {
            Containment::Cgroup
        } else {
            Containment::ProcessGroup
        }
    }

    /// Where to start the supervisor and which cgroups to use for `containment`; None if this
    /// machine does not offer it. Cgroups add a tree-wide memory limit and fork cap to a PID
    /// namespace too, so they are used whenever available except for `ProcessGroup`.
    pub(crate) fn setup(&self, containment: Containment) -> Option<(Isolation, Option<&Cgroups>)> {
        match containment {
            Containment::PidNamespace => Some((self.pid_namespace?, self.cgroups.as_ref())),
            Containment::Cgroup => Some((Isolation::Plain, Some(self.cgroups.as_ref()?))),
            Containment::ProcessGroup => Some((Isolation::Plain, None)),
        }
    }

    pub(crate) fn describe(&self) -> String {
        let mut text = self.best().to_string();
        if let Some(Isolation::PidNamespace {
            user_namespace: true,
        }) = self.pid_namespace
        {
            text.push_str(" (in a user namespace)");
        }
        if let Some(c) = &self.cgroups {
            let version = match c.version {
                CgroupVersion::V1 => "v1",
                CgroupVersion::V2 => "v2",
            };
            text.push_str(&format!(", cgroup {version} "));
            text.push_str(if c.memory {
                "(memory and pids limits)"
            } else {
                "(pids limit; this kernel does not account memory in it)"
            });
        } else {
            text.push_str(", no writable cgroup");
        }
        if crate::plan::TRACING_SUPPORTED {
            text.push_str(", allocation tracing");
        }
        text
    }
}

/// Root can create a PID namespace directly (cheaper); anyone else needs a user namespace too.
fn probe_pid_namespace() -> Option<Isolation> {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let candidates = [
        Isolation::PidNamespace {
            user_namespace: false,
        },
        Isolation::PidNamespace {
            user_namespace: true,
        },
    ];
    candidates
        .into_iter()
        .filter(|c| root || *c != candidates[0])
        .find(|&isolation| {
            extern "C" fn exit_at_once(_: *mut libc::c_void) -> libc::c_int {
                // SAFETY: exiting has no preconditions.
                unsafe { raw::exit(0) }
            }
            // SAFETY: the child only exits; we reap it right away.
            unsafe {
                let pid = spawn_process(isolation, exit_at_once, std::ptr::null_mut());
                let mut status = 0;
                pid > 0 && libc::waitpid(pid, &mut status, 0) == pid && status == 0
            }
        })
}

fn clone_flags(isolation: Isolation) -> libc::c_int {
    match isolation {
        Isolation::PidNamespace { user_namespace } => {
            libc::CLONE_NEWPID
                | if user_namespace {
                    libc::CLONE_NEWUSER
                } else {
                    0
                }
        }
        Isolation::Plain => 0,
    }
}

/// fork(2) with namespace flags: returns 0 in the child, the pid (or -1) in the parent.
unsafe fn raw_fork(isolation: Isolation) -> libc::pid_t {
    let zero: libc::c_long = 0;
    let flags = libc::c_long::from(clone_flags(isolation) | libc::SIGCHLD);
    libc::syscall(libc::SYS_clone, flags, zero, zero, zero, zero) as libc::pid_t
}

/// Runs `entry(arg)` in a new process (in `isolation`) and returns its pid. With
/// `raw::SHARES_MEMORY` the process shares our memory and runs on this thread's supervisor
/// stack (like posix_spawn's vfork, but we go on running): no page tables are copied, which is
/// most of a fork's cost. `arg` must stay valid until the process exits.
unsafe fn spawn_process(
    isolation: Isolation,
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    arg: *mut libc::c_void,
) -> libc::pid_t {
    if !raw::SHARES_MEMORY {
        let pid = raw_fork(isolation);
        if pid == 0 {
            raw::exit(entry(arg));
        }
        return pid;
    }
    STACK.with(|stack| {
        libc::clone(
            entry,
            stack.top(),
            libc::CLONE_VM | clone_flags(isolation) | libc::SIGCHLD,
            arg,
        )
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
        // SAFETY: unmapping our own mapping; no supervisor runs on it any more (run_with waits).
        unsafe { libc::munmap(self.base, STACK_SIZE) };
    }
}

/// A started supervisor, registered so kill_all_running can reach it until it is reaped.
pub(crate) struct Started {
    id: u64,
    pub pid: libc::pid_t,
    isolation: Isolation,
    cgroup: Option<PathBuf>,
}

struct Entry {
    id: u64,
    pid: libc::pid_t,
    isolation: Isolation,
    cgroup: Option<PathBuf>,
}

static RUNNING: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Starts the supervisor for `plan`. Errors are clone's errno.
pub(crate) fn start(plan: &Plan, cgroup: Option<PathBuf>) -> std::io::Result<Started> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    extern "C" fn supervise(plan: *mut libc::c_void) -> libc::c_int {
        // SAFETY: plan is the caller's Plan, alive until the supervisor is reaped.
        unsafe { supervise::main(&*plan.cast::<Plan>()) }
    }
    // SAFETY: the child runs only supervise::main, which uses raw syscalls on data that stays
    // alive (the plan, the thread's stack) until run_with has reaped it.
    let pid = unsafe {
        spawn_process(
            plan.isolation,
            supervise,
            (plan as *const Plan).cast_mut().cast(),
        )
    };
    if pid < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let started = Started {
        id: NEXT.fetch_add(1, Ordering::Relaxed),
        pid,
        isolation: plan.isolation,
        cgroup,
    };
    lock_running().push(Entry {
        id: started.id,
        pid,
        isolation: started.isolation,
        cgroup: started.cgroup.clone(),
    });
    // kill_all_running sets the flag before it scans, so a run registered after the scan sees it.
    if INTERRUPTED.load(Ordering::SeqCst) {
        kill_tree(pid, started.isolation, started.cgroup.as_deref());
    }
    Ok(started)
}

impl Started {
    /// Kills the run if `kill`, waits for the supervisor to end, makes sure nothing of the run
    /// is left, and reaps the supervisor. Returns the supervisor's rusage.
    pub(crate) fn end(self, kill: bool) -> libc::rusage {
        if kill {
            kill_tree(self.pid, self.isolation, self.cgroup.as_deref());
        }
        // Wait without reaping: while the supervisor is a zombie its pid (our process group id)
        // cannot be reused, so signalling the group below cannot hit a stranger.
        // SAFETY: plain syscalls on our own child.
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
        if kill || self.isolation == Isolation::Plain {
            // In a PID namespace the supervisor's exit already ended everything.
            kill_tree(self.pid, self.isolation, self.cgroup.as_deref());
        }
        lock_running().retain(|e| e.id != self.id);
        // SAFETY: reaping our own child, which has exited.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let mut status = 0;
            libc::wait4(self.pid, &mut status, 0, &mut usage);
            usage
        };
        if self.isolation == Isolation::Plain {
            wait_group_gone(self.pid);
        }
        usage
    }
}

/// SIGKILL for everything of one run. Only called while the supervisor is not yet reaped.
fn kill_tree(pid: libc::pid_t, isolation: Isolation, cgroup: Option<&std::path::Path>) {
    // SAFETY: kill has no memory-safety preconditions; pid is our unreaped child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        if isolation == Isolation::Plain {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
    if let Some(dir) = cgroup {
        cgroup::kill_members(dir);
    }
}

/// Gives killed group members a moment to disappear, so callers see no leftovers.
fn wait_group_gone(pgid: libc::pid_t) {
    let until = std::time::Instant::now() + std::time::Duration::from_millis(200);
    // SAFETY: signal 0 only probes for existence.
    while unsafe { libc::killpg(pgid, 0) } == 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
}

fn lock_running() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every judged program now (for the runner's Ctrl-C handler). Runs that are still
/// starting are killed as soon as they start; every `run` in progress returns promptly.
pub fn kill_all_running() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for entry in lock_running().iter() {
        kill_tree(entry.pid, entry.isolation, entry.cgroup.as_deref());
    }
}
