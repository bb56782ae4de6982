//! Working folders for runs without a box (no mount namespace on this machine): a host folder
//! `$TMPDIR/grundy-work-*` per concurrent run, with, when grundy runs as root, the box user that
//! owns it. Both are made once and reused (the folder emptied) instead of made and removed per
//! run; all are removed at exit, and those of a grundy that died are swept by the next one
//! (liveness.rs: a folder stays flock'ed by the grundy using it).

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};

use crate::identity::{self, Lease};
use crate::liveness::{self, LiveDir};

/// Not `grundy-run-`: older grundys sweep `grundy-run-<pid>-*` by pid, and must not mistake
/// these for theirs.
const PREFIX: &str = "grundy-work-";

/// An empty working folder, and the user a run in it takes (root only).
pub(crate) struct Slot {
    dir: LiveDir,
    pub lease: Option<Lease>,
}

static POOL: Mutex<Vec<Slot>> = Mutex::new(Vec::new());
/// Every folder this process made, for removal at exit.
static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

impl Slot {
    pub(crate) fn acquire() -> io::Result<Slot> {
        if let Some(slot) = pool().pop() {
            return Ok(slot);
        }
        let parent = parent();
        prepare_once(&parent);
        let dir = LiveDir::create(&parent, PREFIX, 0o700)?;
        created().push(dir.path().to_path_buf());
        let lease = if identity::is_root() {
            let lease = identity::claim()?;
            let (uid, gid) = lease.ids();
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))?;
            Some(lease)
        } else {
            None
        };
        Ok(Slot { dir, lease })
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Empties the folder and returns the slot to the pool (or removes it if it cannot be
    /// emptied, or if processes of the run may be left, still running as its user).
    pub(crate) fn release(self, maybe_left: bool) {
        let user_free = match &self.lease {
            Some(lease) if maybe_left => identity::gone_soon(lease.uid),
            _ => true,
        };
        if let Some(lease) = self.lease.as_ref().filter(|_| user_free) {
            identity::sweep_files(lease.uid);
        }
        if user_free && crate::scrub::empty(self.path(), 0o700, &[]).is_ok() {
            pool().push(self);
        } else {
            crate::scrub::remove(self.path());
            created().retain(|p| p != self.path());
        }
    }
}

fn pool() -> MutexGuard<'static, Vec<Slot>> {
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

fn created() -> MutexGuard<'static, Vec<PathBuf>> {
    CREATED.lock().unwrap_or_else(|e| e.into_inner())
}

/// The temporary folder; as root, one a box user can reach (else /tmp).
fn parent() -> PathBuf {
    let temp = std::env::temp_dir();
    if !identity::is_root() {
        return temp;
    }
    let open = |p: &Path| {
        p.ancestors()
            .all(|d| std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
    };
    if open(&temp) {
        temp
    } else {
        PathBuf::from("/tmp")
    }
}

/// Once per process: remove our folders at exit, and sweep those of dead grundys.
fn prepare_once(parent: &Path) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: remove_all is a plain extern "C" fn without arguments.
        unsafe { libc::atexit(remove_all) };
        liveness::sweep(parent, PREFIX, crate::scrub::remove);
    });
}

extern "C" fn remove_all() {
    for dir in std::mem::take(&mut *created()) {
        crate::scrub::remove(&dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_emptied_for_reuse_even_with_locked_directories() {
        let slot = Slot::acquire().unwrap();
        let path = slot.path().to_path_buf();
        let locked = path.join("a/b");
        std::fs::create_dir_all(&locked).unwrap();
        std::fs::write(locked.join("f"), b"x").unwrap();
        std::fs::write(path.join("g"), b"x").unwrap();
        std::fs::set_permissions(path.join("a"), std::fs::Permissions::from_mode(0o000)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o500)).unwrap();
        slot.release(false);
        assert_eq!(std::fs::read_dir(&path).unwrap().count(), 0);
        remove_all();
        assert!(!path.exists());
    }
}
