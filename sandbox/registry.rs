//! Every run in progress, so that `kill_all_running` (the runner's Ctrl-C) can end them all at
//! once, including runs that are still starting.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::{cgroup, raw};

/// What to kill to end one run at once.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// A plain supervisor: its process group and cgroup.
    Plain {
        pid: libc::pid_t,
        cgroup: Option<PathBuf>,
    },
    /// A box keeper: the first process of the box's PID namespace, whose end ends the box.
    Keeper { pid: libc::pid_t },
}

struct Entry {
    id: u64,
    target: Target,
}

static RUNNING: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// A run's place in the registry; removed on `remove` or drop.
pub(crate) struct Registration {
    id: u64,
}

/// Registers a run that has started. If `kill_all_running` was called already, the run is
/// killed at once.
pub(crate) fn register(target: Target) -> Registration {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    lock().push(Entry {
        id,
        target: target.clone(),
    });
    // kill_all_running sets the flag before it scans, so a run registered after the scan sees it.
    if INTERRUPTED.load(Ordering::SeqCst) {
        kill(&target);
    }
    Registration { id }
}

impl Registration {
    pub(crate) fn remove(&mut self) {
        lock().retain(|e| e.id != self.id);
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.remove();
    }
}

fn lock() -> MutexGuard<'static, Vec<Entry>> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

fn kill(target: &Target) {
    match target {
        Target::Plain { pid, cgroup } => kill_tree(*pid, cgroup.as_deref()),
        Target::Keeper { pid } => {
            let _ = crate::raw::kill(*pid, libc::SIGKILL);
        }
    }
}

/// Kills every judged program now (for the runner's Ctrl-C handler). Runs that are still
/// starting are killed as soon as they start; every `run` in progress returns promptly.
pub fn kill_all_running() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for entry in lock().iter() {
        kill(&entry.target);
    }
}

/// SIGKILL for everything of one run. Only called while the supervisor is not yet reaped.
pub(crate) fn kill_tree(pid: libc::pid_t, cgroup: Option<&Path>) {
    let _ = raw::kill(pid, libc::SIGKILL);
    let _ = raw::kill(-pid, libc::SIGKILL);
    if let Some(dir) = cgroup {
        cgroup::kill_members(dir);
    }
}
