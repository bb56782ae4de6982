//! Landlock, where no mount namespace gives a run a root of its own (the cgroup and process
//! group containments): the program may read and execute the system folders and its own files,
//! read `/proc` and use the few devices a box has, and write only in its working folder; with
//! Landlock ABI 6 or later it may also signal, and connect to abstract sockets of, only
//! processes of its own run. Landlock needs no privilege, so an ordinary user gets the same
//! filesystem view as root; and it cannot be undone by the program (nor by its children).
//!
//! The ruleset is built here, on the runner's side, into a descriptor that the program child
//! enforces on itself just before exec (child.rs) with one system call. The three Landlock
//! calls are made directly (libc names their numbers but not their structures), as everything
//! the program child does is.

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::sys::cvt;

const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
/// Every access right up to ABI 1 (execute to make a symlink), 2 (refer), 3 (truncate) and
/// 5 (ioctl on devices).
const TRUNCATE: u64 = 1 << 14;
const IOCTL_DEV: u64 = 1 << 15;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;
const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: u32 = 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI this kernel offers (0: none, or disabled at boot), asked once.
pub(crate) fn abi() -> u32 {
    static ABI: OnceLock<u32> = OnceLock::new();
    *ABI.get_or_init(|| {
        // SAFETY: with the version flag the kernel reads no structure.
        let version = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<RulesetAttr>(),
                0usize,
                CREATE_RULESET_VERSION,
            )
        };
        u32::try_from(version).unwrap_or(0)
    })
}

/// Every filesystem access right `abi` knows.
fn handled(abi: u32) -> u64 {
    match abi {
        0 => 0,
        1 => (1 << 13) - 1,
        2 => (1 << 14) - 1,
        3 | 4 => (1 << 15) - 1,
        _ => (1 << 16) - 1,
    }
}

/// What a run may reach without a root of its own.
pub(crate) struct View<'a> {
    /// Folders and files of the system, read-only with execution (those missing are skipped).
    pub system: &'a [PathBuf],
    /// The program's own files and folders, read-only with execution.
    pub own: &'a [PathBuf],
    /// Read-only, without execution (`/proc`).
    pub read: &'a [PathBuf],
    /// Devices read and written (`/dev/null`...).
    pub devices: &'a [PathBuf],
    /// The one folder it may change.
    pub workdir: &'a Path,
}

/// A ruleset descriptor for `view`, for the program child to enforce; None where this kernel
/// has no Landlock. Rulesets are kept for the next run of the same program in the same working
/// folder (a rule holds the file it was made for, so the key is the files themselves: a program
/// rebuilt at the same path gets a new ruleset): making one costs an open and a system call per
/// path, a good part of a tiny run.
pub(crate) fn ruleset(view: &View<'_>) -> io::Result<Option<Arc<OwnedFd>>> {
    type Key = Vec<(PathBuf, u64, u64)>;
    const KEPT: usize = 64;
    static KEPT_RULESETS: Mutex<Vec<(Key, Arc<OwnedFd>)>> = Mutex::new(Vec::new());
    if abi() == 0 {
        return Ok(None);
    }
    let key: Key = view
        .own
        .iter()
        .chain(view.system)
        .chain([&view.workdir.to_path_buf()])
        .map(|path| {
            let (dev, ino) = std::fs::metadata(path).map_or((0, 0), |m| (m.dev(), m.ino()));
            (path.clone(), dev, ino)
        })
        .collect();
    let kept = || KEPT_RULESETS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, ruleset)) = kept().iter().find(|(k, _)| *k == key) {
        return Ok(Some(Arc::clone(ruleset)));
    }
    let Some(ruleset) = build(view)? else {
        return Ok(None);
    };
    let ruleset = Arc::new(ruleset);
    let mut kept = kept();
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    kept.push((key, Arc::clone(&ruleset)));
    Ok(Some(ruleset))
}

/// A new ruleset descriptor for `view`.
fn build(view: &View<'_>) -> io::Result<Option<OwnedFd>> {
    let abi = abi();
    if abi == 0 {
        return Ok(None);
    }
    let all = handled(abi);
    let attr = RulesetAttr {
        handled_access_fs: all,
        handled_access_net: 0,
        scoped: if abi >= 6 {
            SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        } else {
            0
        },
    };
    // SAFETY: attr is a valid landlock_ruleset_attr of the size given; the result is a new
    // descriptor we then own.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            &attr as *const RulesetAttr,
            std::mem::size_of::<RulesetAttr>(),
            0u32,
        )
    };
    let fd = cvt(fd as libc::c_int)?;
    // SAFETY: a new descriptor, owned by nobody else.
    let ruleset = unsafe { OwnedFd::from_raw_fd(fd) };
    let files = EXECUTE | READ_FILE;
    let folders = files | READ_DIR;
    for path in view.system.iter().chain(view.own) {
        allow(&ruleset, path, folders, files, false)?;
    }
    for path in view.read {
        allow(&ruleset, path, READ_FILE | READ_DIR, READ_FILE, false)?;
    }
    let device = (READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV) & all;
    for path in view.devices {
        allow(&ruleset, path, device, device, false)?;
    }
    allow(&ruleset, view.workdir, all, all, true)?;
    Ok(Some(ruleset))
}

/// Allows `folder_access` beneath `path` if it is a folder, `file_access` if it is a file.
/// A missing path is skipped unless `required`.
fn allow(
    ruleset: &OwnedFd,
    path: &Path,
    folder_access: u64,
    file_access: u64,
    required: bool,
) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let name = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::other(format!("{} contains a NUL byte", path.display())))?;
    // SAFETY: a NUL-terminated path; the result is a new descriptor we then own.
    let fd = unsafe { libc::open(name.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if fd < 0 {
        let error = io::Error::last_os_error();
        return if required {
            Err(io::Error::new(
                error.kind(),
                format!("{}: {error}", path.display()),
            ))
        } else {
            Ok(())
        };
    }
    // SAFETY: a new descriptor, owned by nobody else.
    let parent = unsafe { OwnedFd::from_raw_fd(fd) };
    let is_dir = std::fs::metadata(format!("/proc/self/fd/{fd}"))
        .or_else(|_| std::fs::metadata(path))
        .is_ok_and(|m| m.is_dir());
    // Only a folder may carry folder rights; a file gets the file rights of its set.
    let file_rights = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;
    let rule = PathBeneathAttr {
        allowed_access: if is_dir {
            folder_access
        } else {
            file_access & file_rights
        },
        parent_fd: parent.as_raw_fd(),
    };
    // SAFETY: rule is a valid landlock_path_beneath_attr; both descriptors are ours.
    let added = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            RULE_PATH_BENEATH,
            &rule as *const PathBeneathAttr,
            0u32,
        )
    };
    cvt(added as libc::c_int).map(|_| ()).map_err(|error| {
        io::Error::new(error.kind(), format!("showing {}: {error}", path.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_abi_handles_what_it_knows() {
        assert_eq!(handled(0), 0);
        assert_eq!(handled(1) & (1 << 13), 0, "refer came with ABI 2");
        assert_ne!(handled(2) & (1 << 13), 0);
        assert_ne!(handled(3) & TRUNCATE, 0);
        assert_eq!(
            handled(4) & IOCTL_DEV,
            0,
            "ioctl on devices came with ABI 5"
        );
        assert_ne!(handled(7) & IOCTL_DEV, 0);
    }
}
