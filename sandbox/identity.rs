//! The unprivileged users judged programs run as when grundy runs as root: one uid (and the
//! gid of the same number) per concurrent box, from a configurable range (60000 and up by
//! default, as isolate does), skipping ids that belong to real accounts. A uid is claimed for
//! every grundy on the machine at once by an flock on `/run/grundy/uids/<uid>`, held while the
//! box exists: never by pid, so grundys in different PID namespaces cannot hand out the same
//! uid, and a grundy that dies releases its uids with its descriptors.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::raw;

/// The folder of root-owned state shared by every grundy on the machine.
pub(crate) const STATE_DIR: &str = "/run/grundy";

static RANGE: Mutex<(u32, u32)> = Mutex::new((60_000, 1_000));

/// Sets the uids boxes may use when grundy runs as root: `count` ids from `first` (gid =
/// uid). Takes effect for boxes made afterwards.
pub fn set_uid_range(first: u32, count: u32) {
    *RANGE.lock().unwrap_or_else(|e| e.into_inner()) = (first, count.max(1));
}

/// Whether this process runs as root (then programs run as a box user).
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A uid (and gid) held for one box; released on drop.
#[derive(Debug)]
pub(crate) struct Lease {
    pub uid: u32,
    _lock: File,
}

impl Lease {
    pub(crate) fn ids(&self) -> (u32, u32) {
        (self.uid, self.uid)
    }
}

/// Claims a free uid of the range. Processes a dead grundy may have left running as it are
/// killed first.
pub(crate) fn claim() -> io::Result<Lease> {
    let (first, count) = *RANGE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(STATE_DIR).join("uids");
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    for uid in first..first.saturating_add(count) {
        if belongs_to_an_account(uid) {
            continue;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(dir.join(uid.to_string()))?;
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            continue;
        }
        // A dead grundy's processes of this user may still be dying (or be zombies nobody
        // reaps): they would count against the next run's process limit.
        if processes_left(uid, true) && !gone_soon(uid) {
            continue;
        }
        sweep_files(uid);
        return Ok(Lease { uid, _lock: file });
    }
    Err(io::Error::other(format!(
        "all {count} box users from uid {first} are in use by other runs"
    )))
}

/// The host's folders any user may write in, where a box user whom no Landlock ruleset stops
/// can leave files outside its working folder (POSIX message queues are refused it outright).
const SHARED_FOLDERS: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// Removes what the box user `uid` left in the shared folders, where no Landlock ruleset kept
/// it from them: whatever it owns there is its run's (the user is claimed by one run at a time,
/// and has no process left). Also done when the user is claimed, for a run that ended before
/// its user's last process did (or a grundy that died).
pub(crate) fn sweep_files(uid: u32) {
    if crate::landlock::abi() > 0 {
        return;
    }
    use std::os::unix::fs::MetadataExt;
    for folder in SHARED_FOLDERS {
        let Ok(entries) = std::fs::read_dir(folder) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.metadata().is_ok_and(|m| m.uid() == uid) {
                crate::scrub::remove(&entry.path());
            }
        }
    }
}

/// Whether a user or group with this id exists (its files could be reachable).
fn belongs_to_an_account(id: u32) -> bool {
    let mut buf = vec![0u8; 16 * 1024];
    // SAFETY: the structs are plain data; the reentrant lookups write only into them and buf.
    unsafe {
        let mut pw: libc::passwd = std::mem::zeroed();
        let mut pw_out = std::ptr::null_mut();
        libc::getpwuid_r(id, &mut pw, buf.as_mut_ptr().cast(), buf.len(), &mut pw_out);
        if !pw_out.is_null() {
            return true;
        }
        let mut gr: libc::group = std::mem::zeroed();
        let mut gr_out = std::ptr::null_mut();
        libc::getgrgid_r(id, &mut gr, buf.as_mut_ptr().cast(), buf.len(), &mut gr_out);
        !gr_out.is_null()
    }
}

/// Whether any process (zombies included) has `uid` as its real user, after SIGKILLing every
/// one of them when `kill`. A forked child takes the uid (so kill(-1) reaches that user's
/// processes only) and forks once more with RLIMIT_NPROC at 2, which the kernel allows only
/// while the child is the user's one process, zombies counted: that answers without reading
/// every `/proc/<pid>/status`. When the fork is refused (also by a pids limit) or the child
/// cannot take the uid, /proc decides.
fn processes_left(uid: u32, kill: bool) -> bool {
    !only_process_of(uid, kill) && listed_in_proc(uid)
}

/// Whether a child that took `uid` (and SIGKILLed the rest of that user's processes, when
/// `kill`) could tell it was the user's only process; see [`processes_left`].
fn only_process_of(uid: u32, kill: bool) -> bool {
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

/// Whether /proc lists a process (zombies included) with `uid` as its real user.
fn listed_in_proc(uid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let numeric = entry
            .file_name()
            .to_string_lossy()
            .bytes()
            .all(|b| b.is_ascii_digit());
        // A /proc/<pid> folder belongs to the process's effective user; dumpable or not, the
        // status file says the real one.
        numeric
            && entry
                .metadata()
                .is_ok_and(|m| m.uid() == uid || m.uid() == 0)
            && std::fs::read_to_string(entry.path().join("status")).is_ok_and(|status| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix("Uid:"))
                    .and_then(|ids| ids.split_whitespace().next()?.parse::<u32>().ok())
                    == Some(uid)
            })
    })
}

/// Whether every folder leading to `path` lets other users through, and `path` itself lets
/// them read (and execute, if `exec`): what a box user needs to use it without a bind mount.
pub(crate) fn reachable_by_others(path: &Path, exec: bool) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode());
    let ancestors_ok = path
        .ancestors()
        .skip(1)
        .all(|dir| mode(dir).is_ok_and(|m| m & 0o001 != 0));
    ancestors_ok && readable_by_others(path, exec)
}

/// Whether `path` (a file, or a folder and everything in it) can be read by other users.
/// Symlinks inside a folder are not followed (what they point to is the box's business).
pub(crate) fn readable_by_others(path: &Path, exec: bool) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    readable_meta(path, &meta, exec)
}

fn readable_meta(path: &Path, meta: &std::fs::Metadata, exec: bool) -> bool {
    if !readable_entry(meta, exec) {
        return false;
    }
    // A folder: every entry below it, at any depth, walked from a list of folders still to
    // look into (no recursion), and within a budget: a tree larger than that is taken as not
    // readable by all (a copy or an error follows, not an endless look).
    const MAX_ENTRIES: usize = 1_000_000;
    let mut pending = if meta.is_dir() {
        vec![path.to_path_buf()]
    } else {
        Vec::new()
    };
    let mut looked = 0;
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            return false;
        };
        for entry in entries {
            looked += 1;
            let Ok(entry) = entry else {
                return false;
            };
            if looked > MAX_ENTRIES {
                return false;
            }
            // The entry's own metadata (a link is not followed), looked up in its folder.
            match entry.metadata() {
                Ok(meta) if readable_entry(&meta, false) => {
                    if meta.is_dir() {
                        pending.push(entry.path());
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

/// Whether any user may read one entry (and run it, with `exec`): a folder must let them list
/// and enter it. A symbolic link says nothing by itself (what it points to is the box's
/// business).
fn readable_entry(meta: &std::fs::Metadata, exec: bool) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode();
    if meta.file_type().is_symlink() {
        true
    } else if meta.is_dir() {
        mode & 0o005 == 0o005
    } else {
        mode & 0o004 != 0 && (!exec || mode & 0o001 != 0)
    }
}

/// `/run/grundy/<name>`, created (root only) with `mode`.
pub(crate) fn state_subdir(name: &str, mode: u32) -> io::Result<PathBuf> {
    let dir = Path::new(STATE_DIR).join(name);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(mode)
        .create(&dir)?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(Path::new(STATE_DIR), std::fs::Permissions::from_mode(0o711))?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Child, Command};
    use std::time::{Duration, Instant};

    fn as_user(uid: u32, program: &str, args: &[&str]) -> Child {
        Command::new(program)
            .args(args)
            .uid(uid)
            .gid(uid)
            .spawn()
            .unwrap()
    }

    fn state_of(child: &Child) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).ok()?;
        stat.rsplit_once(") ")?.1.chars().next()
    }

    #[test]
    #[cfg_attr(
        not(as_root),
        ignore = "needs root: the test runs processes as a box user"
    )]
    fn a_users_processes_are_found_zombies_included_and_ended() {
        let lease = claim().unwrap();
        let uid = lease.uid;
        // Nobody: the child tells at once, without /proc.
        assert!(only_process_of(uid, false));
        assert!(!processes_left(uid, false));

        let mut sleeper = as_user(uid, "sleep", &["60"]);
        assert!(!only_process_of(uid, false));
        assert!(processes_left(uid, false));
        // Killed, it stays a zombie of ours until reaped: still there.
        processes_left(uid, true);
        let status = sleeper.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(libc::SIGKILL)
        );
        assert!(gone_soon(uid));

        let mut quick = as_user(uid, "true", &[]);
        let since = Instant::now();
        while state_of(&quick) != Some('Z') {
            assert!(
                since.elapsed() < Duration::from_secs(10),
                "`true` never ended"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(processes_left(uid, false), "a zombie still counts");
        quick.wait().unwrap();
        assert!(only_process_of(uid, false));
    }

    #[test]
    fn a_tree_is_readable_by_all_only_if_every_entry_at_every_depth_is() {
        use std::os::unix::fs::PermissionsExt;
        let root = std::env::temp_dir().join(format!("grundy-readable-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut deep = root.clone();
        for _ in 0..200 {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("leaf"), "x").unwrap();
        let wide = root.join("wide");
        std::fs::create_dir(&wide).unwrap();
        for i in 0..10_050 {
            std::fs::write(wide.join(format!("{i:05}")), "").unwrap();
        }
        let set_mode = |path: &Path, mode| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
        };
        for path in walk(&root) {
            set_mode(&path, if path.is_dir() { 0o755 } else { 0o644 });
        }
        assert!(readable_by_others(&root, false));
        // A file no one else may read, 200 folders down, or past the 10,000th name of a folder.
        set_mode(&deep.join("leaf"), 0o600);
        assert!(!readable_by_others(&root, false));
        set_mode(&deep.join("leaf"), 0o644);
        // The names a listing gives after its 10,000th (the old look stopped there).
        let listed: Vec<PathBuf> = std::fs::read_dir(&wide)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        for path in &listed[10_000..] {
            set_mode(path, 0o600);
        }
        assert!(!readable_by_others(&wide, false));
        for path in &listed[10_000..] {
            set_mode(path, 0o644);
        }
        assert!(readable_by_others(&root, false));
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// Every path below `root` (itself included), without recursion.
    fn walk(root: &Path) -> Vec<PathBuf> {
        let mut all = vec![root.to_path_buf()];
        let mut at = 0;
        while at < all.len() {
            if all[at].is_dir() {
                let below: Vec<PathBuf> = std::fs::read_dir(&all[at])
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                all.extend(below);
            }
            at += 1;
        }
        all
    }
}
