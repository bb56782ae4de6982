//! Which mechanism keeps a run's processes and view apart on this machine (probed once), and
//! the one line `check -v` prints about it.

use std::fmt;
use std::sync::OnceLock;

use crate::boxes::{self, Support};
use crate::cgroup::{CgroupVersion, Cgroups};
use crate::identity;

/// How the runner contains a judged program, strongest first. `containment()` says which one
/// `run` uses here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Containment {
    /// A box: the program runs in PID, mount and network namespaces of its own (in a user
    /// namespace when grundy is not root), seeing a minimal root of read-only system folders
    /// and its own files; ending the box's first process ends every process in it.
    PidNamespace,
    /// No namespaces: each run's processes share a cgroup, which is emptied with SIGKILL at
    /// the end; the program sees the host's files.
    Cgroup,
    /// No namespaces, no cgroup: the run is a process group, and every descendant is traced
    /// (the seccomp filter refuses untraced ones) and killed with the supervisor.
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
    /// Whether boxes can be made, and how (None: not here, with the reason).
    pub boxes: std::io::Result<Support>,
    pub cgroups: Option<Cgroups>,
    /// Whether a child can be ptrace'd by its parent here.
    pub tracing: bool,
}

pub(crate) fn probe() -> &'static Probe {
    static PROBE: OnceLock<Probe> = OnceLock::new();
    PROBE.get_or_init(|| {
        crate::protect_runner();
        // Independent, and each waits on the kernel (a box's namespaces, moving a process into
        // a cgroup): side by side, a run's first start pays for the slowest, not the sum.
        std::thread::scope(|scope| {
            let cgroups = scope.spawn(Cgroups::probe);
            let tracing = scope.spawn(|| crate::filter::SUPPORTED && probe_tracing());
            Probe {
                boxes: boxes::probe(),
                cgroups: cgroups.join().unwrap_or(None),
                tracing: tracing.join().unwrap_or(false),
            }
        })
    })
}

/// How a run is set up for a containment.
#[derive(Clone, Copy)]
pub(crate) enum Mode<'a> {
    Boxed(Option<&'a Cgroups>),
    Plain(Option<&'a Cgroups>),
}

impl Probe {
    pub(crate) fn best(&self) -> Containment {
        if self.boxes.is_ok() {
            Containment::PidNamespace
        } else if self.cgroups.is_some() {
            Containment::Cgroup
        } else {
            Containment::ProcessGroup
        }
    }

    /// How to run under `containment`; None if this machine does not offer it. Cgroups add a
    /// tree-wide memory limit and a pids cap to a box too, so they are used whenever available
    /// except for `ProcessGroup`.
    pub(crate) fn mode(&self, containment: Containment) -> Option<Mode<'_>> {
        match containment {
            Containment::PidNamespace => {
                self.boxes.as_ref().ok()?;
                Some(Mode::Boxed(self.cgroups.as_ref()))
            }
            Containment::Cgroup => Some(Mode::Plain(Some(self.cgroups.as_ref()?))),
            Containment::ProcessGroup => Some(Mode::Plain(None)),
        }
    }

    pub(crate) fn describe(&self) -> String {
        let best = self.best();
        let mut parts = vec![best.to_string()];
        match &self.boxes {
            Ok(support) => {
                if support.user_namespace {
                    parts[0].push_str(" (in a user namespace)");
                }
                parts.push("own root folder and network".into());
                if !support.proc {
                    parts.push("no /proc (this kernel refused to mount one)".into());
                }
            }
            Err(why) if best != Containment::PidNamespace => {
                parts.push(format!("no box ({why})"));
            }
            Err(_) => {}
        }
        if best != Containment::PidNamespace {
            parts.push(match crate::landlock::abi() {
                0 => "no Landlock".to_string(),
                abi => format!("Landlock (ABI {abi}) keeps the host's files from programs"),
            });
        }
        if identity::is_root() {
            parts.push("programs run as box users".into());
        }
        match &self.cgroups {
            Some(c) => {
                let version = match c.version {
                    CgroupVersion::V1 => "v1",
                    CgroupVersion::V2 => "v2",
                };
                parts.push(format!(
                    "cgroup {version} {}",
                    if c.memory {
                        "(memory and pids limits)"
                    } else {
                        "(pids limit; this kernel does not account memory in it)"
                    }
                ));
            }
            None => parts.push("no writable cgroup".into()),
        }
        if self.tracing {
            parts.push("allocation tracing".into());
        }
        parts.join(", ")
    }
}

/// Whether a freshly forked child can ask to be traced (not under Yama ptrace_scope 3, nor
/// while a debugger follows our forks).
fn probe_tracing() -> bool {
    // SAFETY: the child makes one raw system call and exits; we reap it.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            crate::raw::exit(i32::from(crate::raw::ptrace_traceme().is_err()));
        }
        let mut status = 0;
        pid > 0 && libc::waitpid(pid, &mut status, 0) == pid && status == 0
    }
}
