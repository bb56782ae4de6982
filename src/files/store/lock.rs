//! The lock of a fixtures root: the root folder itself, locked with `flock` (shared by readers,
//! exclusive by a writer), or on a filesystem where a folder cannot be locked exclusively (NFS)
//! the lock file the first writer makes there. Both are opened through the root's descriptor.

use std::ffi::OsStr;
use std::fs::File;
use std::io;

use rustix::fs::{FlockOperation, OFlags};
use rustix::io::Errno;

use crate::files::folder::Folder;

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
    pub(super) fn shared(root: &Folder) -> io::Result<RootLock> {
        let locked = match root.open_file(OsStr::new(LOCK_FILE), OFlags::RDONLY)? {
            Some(file) => RootLock::take(file, FlockOperation::LockShared)?,
            None => root.lock(FlockOperation::LockShared)?,
        };
        Ok(RootLock { _locked: locked })
    }

    /// Waits for the exclusive lock of `root`, making the lock file where the folder itself
    /// cannot be locked so.
    pub(super) fn exclusive(root: &Folder) -> io::Result<RootLock> {
        let name = OsStr::new(LOCK_FILE);
        let locked = match root.open_file(name, OFlags::RDWR)? {
            Some(file) => RootLock::take(file, FlockOperation::LockExclusive)?,
            None => match root.lock(FlockOperation::LockExclusive) {
                Err(error)
                    if [Errno::BADF, Errno::NOLCK, Errno::NOTSUP, Errno::INVAL]
                        .contains(&Errno::from_io_error(&error).unwrap_or(Errno::IO)) =>
                {
                    let created = root
                        .open_file(name, OFlags::RDWR | OFlags::CREATE)?
                        .expect("made when missing");
                    RootLock::take(created, FlockOperation::LockExclusive)?
                }
                locked => locked?,
            },
        };
        Ok(RootLock { _locked: locked })
    }

    fn take(file: File, operation: FlockOperation) -> io::Result<File> {
        crate::files::flock(&file, operation)?;
        Ok(file)
    }
}
