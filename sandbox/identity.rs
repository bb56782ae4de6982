//! The unprivileged users judged programs run as when grundy runs as root: one uid (and the
//! gid of the same number) per concurrent box, from a configurable range (60000 and up by
//! default, as isolate does), skipping ids that belong to real accounts. A uid is claimed for
//! every grundy on the machine at once by an flock on `/run/grundy/uids/<uid>`, held while the
//! box exists: never by pid, so grundys in different PID namespaces cannot hand out the same
//! uid, and a grundy that dies releases its uids with its descriptors.
//!
//! A claimed uid's processes are ended and its files in the shared folders removed only when
//! grundy has run programs as it since the machine booted (record.rs): then they are a dead
//! grundy's leftovers. A uid grundy has no record of that runs a process or owns a file there
//! is someone else's (a container's mapped user, a service's dynamic user, a range set by
//! mistake): it is refused, never touched (refusal.rs), and the claim moves on.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

mod record;
mod refusal;
mod users;

use refusal::{NoFreeUser, Refusal};
pub(crate) use users::{gone_soon, sweep_files};

/// The folder of root-owned state shared by every grundy on the machine.
pub(crate) const STATE_DIR: &str = "/run/grundy";

/// The uids boxes may use: `count` of them from `first`, and the words an error says about
/// where they were chosen.
#[derive(Clone)]
struct Range {
    first: u32,
    count: u32,
    hint: String,
}

static RANGE: Mutex<Range> = Mutex::new(Range {
    first: 60_000,
    count: 1_000,
    hint: String::new(),
});

/// Sets the uids boxes may use when grundy runs as root: `count` ids from `first` (gid =
/// uid). `hint` says where this range was chosen and how to choose another, for the error of a
/// claim that finds none of them free. Takes effect for boxes made afterwards.
pub fn set_uid_range(first: u32, count: u32, hint: &str) {
    *RANGE.lock().unwrap_or_else(|e| e.into_inner()) = Range {
        first,
        count: count.max(1),
        hint: hint.to_string(),
    };
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

/// Claims a free uid of the range set by [`set_uid_range`].
pub(crate) fn claim() -> io::Result<Lease> {
    let range = RANGE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    claim_in(&range)
}

/// Claims the first uid of `range` that no account has, no other run holds, and that is free
/// ([`settle`]); the error says why none was.
fn claim_in(range: &Range) -> io::Result<Lease> {
    let dir = Path::new(STATE_DIR).join("uids");
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    let last = range.first.saturating_add(range.count - 1);
    let mut none = NoFreeUser {
        first: range.first,
        last,
        hint: range.hint.clone(),
        accounts: 0,
        busy: 0,
        refused: None,
        refusals: 0,
    };
    for uid in range.first..=last {
        if belongs_to_an_account(uid) {
            none.accounts += 1;
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
            none.busy += 1;
            continue;
        }
        match settle(uid, &file) {
            Ok(()) => return Ok(Lease { uid, _lock: file }),
            Err(refusal) => {
                none.refusals += 1;
                none.refused.get_or_insert(refusal);
            }
        }
    }
    Err(io::Error::other(none))
}

/// Makes the uid `lock` holds ready for a box, or says why it is not free. A uid grundy ran
/// programs as in this boot has its leftovers ended and removed: a dead grundy's processes may
/// still be dying (or be zombies nobody reaps), and would count against the next run's process
/// limit. Any other uid must run no process and own nothing in the shared folders, and is then
/// recorded as grundy's.
fn settle(uid: u32, lock: &File) -> Result<(), Refusal> {
    if record::recorded(lock) {
        if users::processes_left(uid, true) && !gone_soon(uid) {
            return Err(Refusal::StillEnding { uid });
        }
        sweep_files(uid);
        return Ok(());
    }
    let pids = users::some_processes_of(uid, 3);
    if !pids.is_empty() {
        return Err(Refusal::Processes { uid, pids });
    }
    if let Some(path) = users::files_of(uid).next() {
        return Err(Refusal::File { uid, path });
    }
    record::record(lock);
    Ok(())
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
    use super::users::{only_process_of, processes_left};
    use super::*;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
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
        assert_eq!(status.signal(), Some(libc::SIGKILL));
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

    /// A process of a uid grundy never claimed, as a container's or a service's would be: killed
    /// when dropped, if the test did not see it end.
    struct Stranger(Child);

    impl Stranger {
        /// `sleep` as `uid`, a uid of the calling test's own (61100 to 61109: no account has
        /// them, and they are neither grundy's default range nor systemd's dynamic users), once
        /// any record of grundy using it is gone (an earlier run of the test may have left one).
        fn start(uid: u32) -> Stranger {
            Stranger(as_user(fresh(uid), "sleep", &["600"]))
        }

        fn alive(&mut self) -> bool {
            self.0.try_wait().unwrap().is_none()
        }
    }

    impl Drop for Stranger {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// `uid`, a uid of the calling test's own, checked to have no account and with any record
    /// of grundy using it removed (the lock file holds it).
    fn fresh(uid: u32) -> u32 {
        assert!(!belongs_to_an_account(uid), "uid {uid} has an account here");
        let _ = std::fs::remove_file(Path::new(STATE_DIR).join("uids").join(uid.to_string()));
        uid
    }

    /// `claim_in`, waiting out a lock held for a moment by someone else. Another test of this
    /// binary that forks between our open and close holds a copy of every descriptor, the lock
    /// file's included, until its child execs: on a loaded machine that is long enough for the
    /// next claim of a one-uid range to find the uid busy.
    fn claim_test(range: &Range) -> io::Result<Lease> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let claimed = claim_in(range);
            let busy = match &claimed {
                Err(e) => e
                    .get_ref()
                    .and_then(|e| e.downcast_ref::<NoFreeUser>())
                    .is_some_and(|none| none.busy > 0),
                Ok(_) => false,
            };
            if !busy || Instant::now() > deadline {
                return claimed;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn range(first: u32, count: u32) -> Range {
        Range {
            first,
            count,
            hint: "the test's range".into(),
        }
    }

    #[test]
    #[cfg_attr(
        not(as_root),
        ignore = "needs root: the test runs a process as another user"
    )]
    fn a_uid_grundy_never_ran_that_runs_a_process_is_refused_not_killed() {
        let mut stranger = Stranger::start(61_100);
        fresh(61_101);
        let error = claim_test(&range(61_100, 1)).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "no box user is free among uids 61100 to 61100 (the test's range): uid 61100 \
                 runs processes grundy did not start (pid {}), so it is not a free box user; \
                 choose uids that no account, container or service uses",
                stranger.0.id()
            )
        );
        assert!(stranger.alive(), "the stranger's process was killed");
        // With another uid in the range, the claim takes that one, and still kills nothing.
        let lease = claim_test(&range(61_100, 2)).unwrap();
        assert_eq!(lease.uid, 61_101);
        assert!(stranger.alive(), "the stranger's process was killed");
    }

    #[test]
    #[cfg_attr(
        not(as_root),
        ignore = "needs root: the test gives a file to another user"
    )]
    fn a_uid_grundy_never_ran_that_owns_a_shared_file_is_refused_and_the_file_kept() {
        let uid = fresh(61_102);
        // Named after the uid, so a file an earlier run of the test left is this one.
        let file = PathBuf::from(format!("/tmp/grundy-stranger-{uid}"));
        let _ = std::fs::remove_file(&file);
        std::fs::write(&file, "someone else's").unwrap();
        std::os::unix::fs::chown(&file, Some(uid), Some(uid)).unwrap();
        let error = claim_test(&range(uid, 1))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        let kept = std::fs::read_to_string(&file);
        std::fs::remove_file(&file).unwrap();
        assert!(
            error.contains(&format!(
                "uid 61102 owns {}, which grundy did not make, so it is not a free box user",
                file.display()
            )),
            "{error}"
        );
        assert_eq!(kept.unwrap(), "someone else's");
    }

    #[test]
    #[cfg_attr(
        not(as_root),
        ignore = "needs root: the test runs a process as a box user"
    )]
    fn a_uid_grundy_ran_has_what_it_left_ended_at_the_next_claim() {
        let uid = fresh(61_103);
        drop(claim_test(&range(uid, 1)).unwrap());
        // What a grundy that died while running a program as it would leave, reaped as soon
        // as it ends (by a thread here, by init there).
        let mut left = as_user(uid, "sleep", &["600"]);
        let pid = left.id();
        let reaper = std::thread::spawn(move || left.wait().unwrap());
        let lease = claim_test(&range(uid, 1)).map(|lease| lease.uid);
        let survived = Path::new(&format!("/proc/{pid}")).exists();
        if survived {
            // SAFETY: kill has no memory preconditions; the pid is our unreaped child's.
            unsafe { libc::kill(pid as i32, libc::SIGTERM) };
        }
        let status = reaper.join().unwrap();
        assert_eq!(lease.unwrap(), uid);
        assert!(!survived, "the leftover process outlived the claim");
        assert_eq!(status.signal(), Some(libc::SIGKILL));
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
