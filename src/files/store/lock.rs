//! The lock of a fixtures root: the root folder itself, locked with `flock` (shared by readers,
//! exclusive by a writer), or on a filesystem where a folder cannot be locked exclusively (NFS)
//! the lock file the first writer makes there.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use rustix::fs::FlockOperation;
use rustix::io::Errno;

/// The lock file of a fixtures root on a filesystem where a folder cannot be locked exclusively
/// (NFS emulates `flock` with POSIX locks, which need a file open for writing). Made by the first
/// writer that needs it and kept; while it exists, readers and writers lock it instead of the
/// folder.
pub(super) const LOCK_FILE: &str = ".grundy-lock";

/// A lock on a fixtures root, released when dropped (or when the process dies, however).
pub struct RootLock {
    _locked: File,
}

impl RootLock {
    /// Waits for the shared lock of `root`.
    pub(super) fn shared(root: &Path) -> io::Result<RootLock> {
        let locked = match File::open(root.join(LOCK_FILE)) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => File::open(root)?,
            opened => opened?,
        };
        RootLock::take(locked, FlockOperation::LockShared)
    }

    /// Waits for the exclusive lock of `root`, making the lock file where the folder itself
    /// cannot be locked so.
    pub(super) fn exclusive(root: &Path) -> io::Result<RootLock> {
        let lock_file = root.join(LOCK_FILE);
        let writable = || OpenOptions::new().read(true).write(true).open(&lock_file);
        match writable() {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            opened => return RootLock::take(opened?, FlockOperation::LockExclusive),
        }
        match RootLock::take(File::open(root)?, FlockOperation::LockExclusive) {
            Err(error)
                if [Errno::BADF, Errno::NOLCK, Errno::NOTSUP, Errno::INVAL]
                    .contains(&Errno::from_io_error(&error).unwrap_or(Errno::IO)) =>
            {
                let created = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(&lock_file)?;
                RootLock::take(created, FlockOperation::LockExclusive)
            }
            locked => locked,
        }
    }

    fn take(file: File, operation: FlockOperation) -> io::Result<RootLock> {
        crate::files::flock(&file, operation)?;
        Ok(RootLock { _locked: file })
    }
}
