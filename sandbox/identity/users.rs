//! What a box user has on the host: its processes (found by a fork under RLIMIT_NPROC, else
//! /proc), and its files in the shared temporary folders; ending and removing them, which only
//! the claim of a uid grundy itself used (and the end of a run as that user) may do.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use crate::raw;

/// Whether any process (zombies included) has `uid` as its real user, after SIGKILLing every
/// one of them when `kill`. A forked child takes the uid (so kill(-1) reaches that user's
/// processes only) and forks once more with RLIMIT_NPROC at 2, which the kernel allows only
/// while the child is the user's one process, zombies counted: that answers without reading
/// every `/proc/<pid>/status`. When the fork is refused (also by a pids limit) or the child
/// cannot take the uid, /proc decides.
pub(crate) fn processes_left(uid: u32, kill: bool) -> bool {
    !only_process_of(uid, kill) && !pids_of(uid, 1).is_empty()
}

/// Up to `at_most` pids of processes whose real user is `uid`, for a refusal to name; none
/// without reading /proc when a child of that uid finds itself alone ([`processes_left`]).
pub(crate) fn some_processes_of(uid: u32, at_most: usize) -> Vec<u32> {
    if only_process_of(uid, false) {
        return Vec::new();
    }
    pids_of(uid, at_most)
}

/// Whether a child that took `uid` (and SIGKILLed the rest of that user's processes, when
/// `kill`) could tell it was the user's only process; see [`processes_left`].
pub(super) fn only_process_of(uid: u32, kill: bool) -> bool {
    // SAFETY: the child makes raw system calls only (this process may have other threads), then
    // exits; we reap it. Its own child does nothing but exit, and is reaped by it.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            // No capability may survive the switch (as under SECBIT_NO_SETUID_FIXUP): with
            // CAP_KILL, kill(-1) would reach every process on the machine, and with
            // CAP_SYS_RESOURCE the fork would ignore RLIMIT_NPROC.
            let became = raw::setgroups_none().is_ok()
                && raw::setresgid(uid).is_ok()
                && raw::setresuid(uid).is_ok()
                && raw::drop_capabilities().is_ok();
            if !became {
                raw::exit(2);
            }
            if kill {
                let _ = raw::kill(-1, libc::SIGKILL);
            }
            let two = libc::rlimit {
                rlim_cur: 2,
                rlim_max: 2,
            };
            if raw::setrlimit(libc::RLIMIT_NPROC, &two).is_err() {
                raw::exit(2);
            }
            match raw::call(libc::SYS_clone, [libc::SIGCHLD as usize, 0, 0, 0, 0, 0]) {
                Ok(0) => raw::exit(0),
                Ok(child) => {
                    let mut usage = std::mem::zeroed();
                    let _ = raw::wait_any(child as i32, 0, &mut usage);
                    raw::exit(0);
                }
                Err(_) => raw::exit(1),
            }
        }
        let mut status = 0;
        pid > 0
            && libc::waitpid(pid, &mut status, 0) == pid
            && libc::WIFEXITED(status)
            && libc::WEXITSTATUS(status) == 0
    }
}

/// Waits up to a second for the last process of `uid` to be gone (reaped): processes killed
/// at the end of a run count against the next run's RLIMIT_NPROC until someone reaps them.
pub(crate) fn gone_soon(uid: u32) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        if !processes_left(uid, false) {
            return true;
        }
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Up to `at_most` pids that /proc lists (zombies included) with `uid` as their real user.
fn pids_of(uid: u32, at_most: usize) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut pids = Vec::new();
    for entry in entries.flatten() {
        if pids.len() >= at_most {
            break;
        }
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // A /proc/<pid> folder belongs to the process's effective user; dumpable or not, the
        // status file says the real one.
        let real_is_uid = entry
            .metadata()
            .is_ok_and(|m| m.uid() == uid || m.uid() == 0)
            && std::fs::read_to_string(entry.path().join("status")).is_ok_and(|status| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix("Uid:"))
                    .and_then(|ids| ids.split_whitespace().next()?.parse::<u32>().ok())
                    == Some(uid)
            });
        if real_is_uid {
            pids.push(pid);
        }
    }
    pids
}

/// The host's folders any user may write in, where a box user whom no Landlock ruleset stops
/// can leave files outside its working folder (POSIX message queues are refused it outright).
const SHARED_FOLDERS: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// What `uid` owns directly in the shared folders (a folder stands for what is in it).
pub(crate) fn files_of(uid: u32) -> impl Iterator<Item = PathBuf> {
    SHARED_FOLDERS
        .into_iter()
        .filter_map(|folder| std::fs::read_dir(folder).ok())
        .flat_map(|entries| entries.flatten())
        .filter(move |entry| entry.metadata().is_ok_and(|m| m.uid() == uid))
        .map(|entry| entry.path())
}

/// Removes what the box user `uid` left in the shared folders, where no Landlock ruleset kept
/// it from them: whatever it owns there is its run's (the user is claimed by one run at a time,
/// and has no process left). Also done when a uid grundy used before is claimed again, for a
/// run that ended before its user's last process did (or a grundy that died).
pub(crate) fn sweep_files(uid: u32) {
    if crate::landlock::abi() > 0 {
        return;
    }
    for path in files_of(uid) {
        crate::scrub::remove(&path);
    }
}
