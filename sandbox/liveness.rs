//! Directories tied to the life of the grundy that made them (working folders, cgroups, staged
//! copies), and sweeping those of a grundy that died. Liveness is a lock, not a pid: the owner
//! holds an flock on the directory itself for as long as it runs, and the kernel drops it when
//! the owner dies however it dies. A pid says nothing across PID namespaces (another grundy's
//! pid may be a live stranger's here, or a dead one's number reused); a lock is global.
//!
//! Creation is race-free against a concurrent sweeper: the creator makes the directory, locks
//! it without waiting, and checks the path still names what it locked; a sweeper removes only
//! directories it could lock, and keeps the lock while it removes them.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A directory this process created and holds locked; unlocked (not removed) on drop.
#[derive(Debug)]
pub(crate) struct LiveDir {
    path: PathBuf,
    _lock: File,
}

impl LiveDir {
    /// Creates `parent/<prefix><random>` with `mode` and locks it.
    pub(crate) fn create(parent: &Path, prefix: &str, mode: u32) -> io::Result<LiveDir> {
        for _ in 0..16 {
            let mut name = OsString::from(prefix);
            name.push(format!("{:016x}", random_u64()));
            let path = parent.join(name);
            match std::fs::DirBuilder::new().mode(mode).create(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
            // A sweeper that locked it first removes it: try another name.
            if let Some(lock) = lock_dir(&path)? {
                let same = std::fs::symlink_metadata(&path).is_ok_and(|m| {
                    lock.metadata()
                        .is_ok_and(|l| l.ino() == m.ino() && l.dev() == m.dev())
                });
                if same {
                    return Ok(LiveDir { path, _lock: lock });
                }
            }
        }
        Err(io::Error::other(format!(
            "cannot create a working folder in {}",
            parent.display()
        )))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// Opens `dir` (never through a symlink) and locks it without waiting: None if another
/// process holds the lock (or the directory is gone).
fn lock_dir(dir: &Path) -> io::Result<Option<File>> {
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(dir)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        Ok(Some(file))
    } else if crate::sys::errno() == libc::EWOULDBLOCK {
        Ok(None)
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Removes, with `remove`, every directory `<prefix><16 hex digits>` in `parent` (a name
/// `LiveDir::create` makes) that no live process holds locked. Nothing else is touched.
pub(crate) fn sweep(parent: &Path, prefix: &str, remove: impl Fn(&Path)) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let ours = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .is_some_and(|rest| rest.len() == 16 && rest.bytes().all(|b| b.is_ascii_hexdigit()));
        if !ours || !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = entry.path();
        if let Ok(Some(_lock)) = lock_dir(&path) {
            remove(&path);
        }
    }
}

/// 64 random bits from the kernel (names only need to be unpredictable enough not to clash).
pub(crate) fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    // SAFETY: getrandom writes at most bytes.len() bytes into the buffer.
    let n = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if n != 8 {
        // Not worth failing for: mix the clock and our pid.
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        return t ^ (u64::from(std::process::id()) << 32);
    }
    u64::from_ne_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeping_spares_locked_directories_and_removes_the_rest() {
        let parent = std::env::temp_dir().join(format!(
            "liveness-{}-{:x}",
            std::process::id(),
            random_u64()
        ));
        std::fs::create_dir_all(&parent).unwrap();
        let live = LiveDir::create(&parent, "grundy-test-", 0o700).unwrap();
        let dead = parent.join("grundy-test-00000000000000aa");
        let foreign = parent.join("grundy-test-1234-abcdef");
        std::fs::create_dir(&foreign).unwrap();
        std::fs::create_dir(&dead).unwrap();
        std::fs::write(dead.join("f"), b"x").unwrap();
        let other = parent.join("unrelated");
        std::fs::create_dir(&other).unwrap();
        sweep(&parent, "grundy-test-", |p| {
            std::fs::remove_dir_all(p).unwrap();
        });
        assert!(live.path().exists());
        assert!(!dead.exists());
        assert!(other.exists() && foreign.exists());
        drop(live);
        // A fork by another test of this process (they run in parallel) holds a copy of the
        // lock's descriptor until its child exits: the directory is freed a moment later.
        let since = std::time::Instant::now();
        loop {
            sweep(&parent, "grundy-test-", |p| {
                std::fs::remove_dir_all(p).unwrap()
            });
            let left = std::fs::read_dir(&parent).unwrap().count();
            if left == 2 || since.elapsed() > std::time::Duration::from_secs(10) {
                assert_eq!(left, 2);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::fs::remove_dir_all(&parent).unwrap();
    }
}
