//! Landlock, where no mount namespace gives a run a root of its own (the cgroup and process
//! group containments): the program may read and execute the system folders and its own files,
//! read `/proc` and use the few devices a box has, and write only in its working folder; with
//! Landlock ABI 6 or later it may also signal, and connect to abstract sockets of, only
//! processes of its own run. Landlock needs no privilege, so an ordinary user gets the same
//! filesystem view as root; and it cannot be undone by the program (nor by its children).
//!
//! A folder the program is shown that holds one it must not see (hidden.rs) is not granted
//! whole: Landlock cannot take back part of a grant, so every other entry on the way is granted
//! instead, each a rule of its own.
//!
//! The ruleset is built here, on the runner's side, into a descriptor that the program child
//! enforces on itself just before exec (child.rs) with one system call. The three Landlock
//! calls are made directly (libc names their numbers but not their structures), as everything
//! the program child does is.

use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::command::SetupError;
use crate::hidden::Hidden;
use crate::layout;
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
    /// Entries granted one by one in place of a folder holding a hidden one, the same way as
    /// `own` (a link among them, made since they were listed, is not followed).
    pub entries: &'a [PathBuf],
    /// Read-only, without execution (`/proc`).
    pub read: &'a [PathBuf],
    /// Devices read and written (`/dev/null`...).
    pub devices: &'a [PathBuf],
    /// The one folder it may change.
    pub workdir: &'a Path,
    /// ... unless it may only read it.
    pub read_only_workdir: bool,
}

/// A ruleset descriptor for `view`, for the program child to enforce; None where this kernel
/// has no Landlock. Rulesets are kept for the next run of the same program in the same working
/// folder (a rule holds the file it was made for, so the key is the files themselves: a program
/// rebuilt at the same path gets a new ruleset): making one costs an open and a system call per
/// path, a good part of a tiny run.
pub(crate) fn ruleset(view: &View<'_>) -> io::Result<Option<Arc<OwnedFd>>> {
    type Key = (bool, Vec<(PathBuf, u64, u64)>);
    const KEPT: usize = 64;
    static KEPT_RULESETS: Mutex<Vec<(Key, Arc<OwnedFd>)>> = Mutex::new(Vec::new());
    if abi() == 0 {
        return Ok(None);
    }
    let paths = view
        .own
        .iter()
        .chain(view.entries)
        .chain(view.system)
        .chain([&view.workdir.to_path_buf()])
        .map(|path| {
            let (dev, ino) = std::fs::metadata(path).map_or((0, 0), |m| (m.dev(), m.ino()));
            (path.clone(), dev, ino)
        })
        .collect();
    let key: Key = (view.read_only_workdir, paths);
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
        allow(&ruleset, path, (folders, files), Open::Follow)?;
    }
    for path in view.entries {
        allow(&ruleset, path, (folders, files), Open::NoFollow)?;
    }
    for path in view.read {
        allow(
            &ruleset,
            path,
            (READ_FILE | READ_DIR, READ_FILE),
            Open::Follow,
        )?;
    }
    let device = (READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV) & all;
    for path in view.devices {
        allow(&ruleset, path, (device, device), Open::Follow)?;
    }
    let workdir = match view.read_only_workdir {
        true => (folders, files),
        false => (all, all),
    };
    allow(&ruleset, view.workdir, workdir, Open::Required)?;
    Ok(Some(ruleset))
}

/// How [`allow`] opens a path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// Following a link; a missing path is skipped.
    Follow,
    /// Never following a link (a link is skipped, as a missing path is).
    NoFollow,
    /// Following a link; a missing path is an error.
    Required,
}

/// Allows the first of `access` (folder rights) beneath `path` if it is a folder, the second
/// (file rights) if it is a file.
fn allow(ruleset: &OwnedFd, path: &Path, access: (u64, u64), open: Open) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let name = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::other(format!("{} contains a NUL byte", path.display())))?;
    let flags = libc::O_PATH
        | libc::O_CLOEXEC
        | match open {
            Open::NoFollow => libc::O_NOFOLLOW,
            Open::Follow | Open::Required => 0,
        };
    // SAFETY: a NUL-terminated path; the result is a new descriptor we then own.
    let fd = unsafe { libc::open(name.as_ptr(), flags) };
    if fd < 0 {
        let error = io::Error::last_os_error();
        return if open == Open::Required {
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
    // SAFETY: fstat fills a plain struct for a descriptor we own (an O_PATH one too).
    let kind = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        match libc::fstat(fd, &mut st) {
            0 => st.st_mode & libc::S_IFMT,
            _ => 0,
        }
    };
    if kind == libc::S_IFLNK {
        return Ok(()); // opened without following: what it leads to is checked where it is
    }
    // Only a folder may carry folder rights; a file gets the file rights of its set.
    let file_rights = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;
    let rule = PathBeneathAttr {
        allowed_access: if kind == libc::S_IFDIR {
            access.0
        } else {
            access.1 & file_rights
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

/// The Landlock ruleset of a plain run (None without Landlock): the system folders and the
/// program's own files (`exe`, its interpreter, the paths among `argv`, `show`) to read and
/// execute, except the folders in `hidden`; `/proc` to read, the box's devices, and its working
/// folder to change (to read, when the program's working folder is read-only).
pub(crate) fn plain_view(
    exe: &Path,
    argv: &[OsString],
    program: &crate::Program,
    hidden: &Hidden,
    workdir: &Path,
) -> Result<Option<Arc<OwnedFd>>, SetupError> {
    let show = &program.show;
    if abi() == 0 {
        return Ok(None);
    }
    let mut system: Vec<_> = layout::SYSTEM_DIRS
        .iter()
        .map(|d| Path::new("/").join(d))
        .collect();
    let devices: Vec<_> = layout::DEVICES
        .iter()
        .map(|d| Path::new("/dev").join(d))
        .collect();
    let mut own: Vec<_> = crate::own_files::own_files(exe, argv)
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    own.extend(show.iter().cloned());
    let mut entries = Vec::new();
    if !hidden.is_empty() {
        let canonical = |path: &Path| match layout::system_folders().iter().find(|(p, _)| p == path)
        {
            Some((_, canonical)) => Ok(canonical.clone()),
            None => hidden.canonical(path),
        };
        for paths in [&mut system, &mut own] {
            let mut whole = Vec::with_capacity(paths.len());
            for path in paths.drain(..) {
                match canonical(&path) {
                    Ok(canonical) if hidden.beneath(&canonical).next().is_some() => {
                        let around = hidden.around(&path, &canonical)?;
                        entries.extend(around);
                    }
                    _ => whole.push(path),
                }
            }
            *paths = whole;
        }
    }
    let view = View {
        system: &system,
        own: &own,
        entries: &entries,
        read: &[PathBuf::from("/proc")],
        devices: &devices,
        workdir,
        read_only_workdir: program.read_only_workdir,
    };
    ruleset(&view).map_err(SetupError::Landlock)
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
