//! What a containment promises on this machine, item by item, so the runner can say once at
//! start what is missing and a strict mode can refuse to judge without all of it.

use crate::containment::{probe, Containment, Mode, Probe};
use crate::identity;

/// What judged programs are kept from, under one containment on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guarantees {
    pub containment: Containment,
    /// A root of its own: read-only system folders and its own files, a private /tmp and
    /// working folder; nothing else of the host (no fixtures, no home, no /root, no /run).
    pub own_filesystem: bool,
    /// The host's files are kept from it, in a box or else by Landlock: it reads only the
    /// system folders and its own files, and writes only its working folder (not the fixtures,
    /// not another run's files, not /tmp or /dev/shm of the host).
    pub private_files: bool,
    /// It runs as a user that cannot reach grundy, other runs or other users' processes: a
    /// box user of its own when grundy is root, or grundy's user inside a user namespace.
    pub unprivileged_identity: bool,
    /// No network: a network namespace of its own, or a seccomp filter refusing sockets.
    pub no_network: bool,
    /// A PID namespace of its own: it sees and signals only its own processes.
    pub separate_pids: bool,
    /// It can signal no process outside its run: a PID namespace, a box user of its own, or
    /// Landlock's signal scoping (ABI 6).
    pub signals_contained: bool,
    /// Memory and process limits for its whole process tree (a cgroup it cannot leave).
    pub cgroup_limits: bool,
    /// Every process it starts ends with its run.
    pub descendants_ended: bool,
}

impl Guarantees {
    /// What is missing, one phrase each, e.g. for "not guaranteed here: …".
    pub fn missing(&self) -> Vec<&'static str> {
        let identity = if self.private_files {
            "an identity of their own (programs run as your user; Landlock keeps your files from them, the system call filter your processes)"
        } else {
            "an identity of their own (programs run as your user, and can reach your files)"
        };
        let pids = if self.signals_contained {
            "a separate PID space (programs see the machine's processes, though they can signal none outside their run)"
        } else {
            "a separate PID space (programs see the machine's processes, and can signal your user's: Landlock here is older than ABI 6)"
        };
        [
            (
                self.private_files,
                "keeping the host's files from programs (no namespaces and no Landlock here: they read and write what their user may, the project's files included)",
            ),
            (
                self.own_filesystem || !self.private_files,
                "a root of their own (Landlock keeps the host's files from programs; /tmp is not theirs, TMPDIR is their working folder)",
            ),
            (self.unprivileged_identity, identity),
            (
                self.no_network,
                "network isolation (this platform has no seccomp filter)",
            ),
            (self.separate_pids, pids),
            (
                self.cgroup_limits,
                "cgroup memory and pids limits (memory is limited per process: its address space, with memfd and System V shared memory refused)",
            ),
            (
                self.descendants_ended,
                "ending every descendant (a process that leaves the process group can outlive its run)",
            ),
        ]
        .into_iter()
        .filter(|(given, _)| !given)
        .map(|(_, phrase)| phrase)
        .collect()
    }

    pub fn is_complete(&self) -> bool {
        self.missing().is_empty()
    }
}

/// The guarantees of the containment `run` uses here.
pub fn guarantees() -> Guarantees {
    let probe = probe();
    of(probe, probe.best())
}

/// The guarantees of `containment` here; None if this machine does not offer it.
pub fn guarantees_of(containment: Containment) -> Option<Guarantees> {
    let probe = probe();
    probe.mode(containment).map(|_| of(probe, containment))
}

fn of(probe: &Probe, containment: Containment) -> Guarantees {
    let root = identity::is_root();
    let filtered = crate::filter::SUPPORTED;
    let cgroup_memory = probe.cgroups.as_ref().is_some_and(|c| c.memory);
    match probe.mode(containment) {
        Some(Mode::Boxed(cgroups)) => Guarantees {
            containment,
            own_filesystem: true,
            private_files: true,
            unprivileged_identity: true,
            no_network: true,
            separate_pids: true,
            signals_contained: true,
            // Inside a box the cgroup files are out of sight, whoever owns them.
            cgroup_limits: cgroups.is_some_and(|c| c.memory),
            descendants_ended: true,
        },
        _ => Guarantees {
            containment,
            own_filesystem: false,
            private_files: crate::landlock::abi() > 0,
            unprivileged_identity: root,
            no_network: filtered,
            separate_pids: false,
            signals_contained: root || crate::landlock::abi() >= 6,
            // A program of grundy's own user could write to a cgroup grundy may write to.
            cgroup_limits: containment == Containment::Cgroup && cgroup_memory && root,
            descendants_ended: containment == Containment::Cgroup || (probe.tracing && filtered),
        },
    }
}
