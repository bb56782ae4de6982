//! Emptying what a finished run left (a working folder, a box's /tmp, a leftover folder of a
//! dead grundy) and checking that nothing is left. What a program left is hostile: a folder
//! 30,000 levels deep, folders it made unreadable, names that are not UTF-8. Removal therefore
//! never recurses on the call stack and never builds a path longer than one name: it walks the
//! tree through descriptors (`openat`, `unlinkat`, and `..` to climb back), keeping only the
//! names of the folders still to visit. It runs once every process of the run has ended, so
//! the tree holds still while it is walked.
//!
//! A caller that must be sure (a box about to be reused) checks [`is_pristine`] afterwards
//! rather than trusting that removal reported no error.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::sys::cvt;

/// Removes everything inside `dir` except the paths in `keep` (relative to `dir`, with the
/// folders leading to them): mount points of the box, which the runner (in another mount
/// namespace) sees as plain files and folders. Restores `dir`'s mode to `mode`. An error if
/// a kept path is gone (a program moved it: the box can no longer be trusted to show it), or
/// if anything could not be removed.
pub(crate) fn empty(dir: &Path, mode: u32, keep: &[PathBuf]) -> io::Result<()> {
    let folder = open_dir(libc::AT_FDCWD, &c_path(dir)?)?;
    let meta = folder.metadata()?;
    if std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777 != mode {
        // SAFETY: fchmod on a descriptor we own.
        cvt(unsafe { libc::fchmod(folder.as_raw_fd(), mode) })?;
    }
    let keep: Vec<&Path> = keep.iter().map(PathBuf::as_path).collect();
    empty_inside(&folder, &keep)?;
    for path in keep {
        std::fs::symlink_metadata(dir.join(path))?;
    }
    Ok(())
}

/// Empties the open folder `dir` but for `keep` (paths relative to it). The kept paths are the
/// few shallow mount points of a box, so following them down recurses only as deep as they go.
fn empty_inside(dir: &File, keep: &[&Path]) -> io::Result<()> {
    for name in names(dir)? {
        let below: Vec<&Path> = keep
            .iter()
            .filter_map(|k| k.strip_prefix(&name).ok())
            .collect();
        if below.iter().any(|rest| rest.as_os_str().is_empty()) {
            continue; // a kept path itself
        }
        let cname = c_name(&name)?;
        if below.is_empty() {
            remove_at(dir, &cname)?;
            continue;
        }
        let sub = match open_dir(dir.as_raw_fd(), &cname) {
            Err(e) if e.raw_os_error() == Some(libc::EACCES) => {
                // The program made it unreadable (it owns it in a user namespace).
                chmod_at(dir, &cname, 0o755)?;
                open_dir(dir.as_raw_fd(), &cname)?
            }
            other => other?,
        };
        empty_inside(&sub, &below)?;
    }
    Ok(())
}

/// Removes the entry `name` of `dir`: a file, a link, or a folder with everything under it.
fn remove_at(dir: &File, name: &CStr) -> io::Result<()> {
    // SAFETY: unlinkat with a NUL-terminated name relative to a descriptor we own.
    if unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) } == 0 {
        return Ok(());
    }
    match crate::sys::errno() {
        libc::EISDIR | libc::EPERM => {}
        _ => return Err(io::Error::last_os_error()),
    }
    let top = open_writable_dir(dir, name)?;
    remove_tree(top)?;
    // SAFETY: as above.
    cvt(unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) })?;
    Ok(())
}

/// Empties the folder `top` without recursion: each folder on the way down is left through
/// `..` once it is empty. `pending` holds, for each level entered, the subfolders still to
/// empty there: memory in proportion to the tree's width along one path, not to its depth in
/// stack frames.
fn remove_tree(top: File) -> io::Result<()> {
    let mut current = top;
    // For each level below `top`: the name of the folder entered, and its siblings to visit.
    let mut path: Vec<(CString, Vec<CString>)> = Vec::new();
    let mut todo = unlink_files(&current)?;
    loop {
        if let Some(next) = todo.pop() {
            let sub = open_writable_dir(&current, &next)?;
            let below = unlink_files(&sub)?;
            path.push((next, std::mem::replace(&mut todo, below)));
            current = sub;
            continue;
        }
        // `current` is empty: climb to its parent and remove it there.
        let Some((name, siblings)) = path.pop() else {
            return Ok(());
        };
        let parent = open_dir(current.as_raw_fd(), c"..")?;
        // SAFETY: unlinkat with a NUL-terminated name relative to a descriptor we own.
        cvt(unsafe { libc::unlinkat(parent.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) })?;
        current = parent;
        todo = siblings;
    }
}

/// Unlinks every entry of `dir` that is not a folder; returns the folders' names.
fn unlink_files(dir: &File) -> io::Result<Vec<CString>> {
    let mut folders = Vec::new();
    for name in names(dir)? {
        let cname = c_name(&name)?;
        // SAFETY: unlinkat with a NUL-terminated name relative to a descriptor we own.
        if unsafe { libc::unlinkat(dir.as_raw_fd(), cname.as_ptr(), 0) } == 0 {
            continue;
        }
        match crate::sys::errno() {
            libc::EISDIR | libc::EPERM => folders.push(cname),
            _ => return Err(io::Error::last_os_error()),
        }
    }
    Ok(folders)
}

/// The folder `name` of `dir`, opened without following a link, and made readable and
/// writable by us first if the program had closed it.
fn open_writable_dir(dir: &File, name: &CStr) -> io::Result<File> {
    let _ = chmod_at(dir, name, 0o700);
    open_dir(dir.as_raw_fd(), name)
}

fn chmod_at(dir: &File, name: &CStr, mode: u32) -> io::Result<()> {
    // SAFETY: fchmodat with a NUL-terminated name relative to a descriptor we own.
    cvt(unsafe { libc::fchmodat(dir.as_raw_fd(), name.as_ptr(), mode, 0) }).map(|_| ())
}

/// Removes `path` and everything under it, even folders the program made unreadable or too
/// deep for a path; what cannot be removed is left (a sweep tries again later).
pub(crate) fn remove(path: &Path) {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let (Ok(parent), Ok(name)) = (c_path(parent), c_name(name)) else {
        return;
    };
    if let Ok(parent) = open_dir(libc::AT_FDCWD, &parent) {
        let _ = remove_at(&parent, &name);
    }
}

/// Whether the folder open as `dir` still has mode `mode` and holds nothing but the `keep`
/// paths (relative to it) and the folders leading to them: what `empty` would leave. A cheap
/// check (a few getdents calls, no path lookups) for the usual run that leaves nothing.
pub(crate) fn is_pristine(dir: &File, mode: u32, keep: &[PathBuf]) -> bool {
    use std::os::unix::fs::MetadataExt;
    let keep: Vec<&Path> = keep.iter().map(PathBuf::as_path).collect();
    dir.metadata().is_ok_and(|m| m.mode() & 0o7777 == mode) && holds_only(dir, &keep)
}

fn holds_only(dir: &File, keep: &[&Path]) -> bool {
    let Ok(entries) = names(dir) else {
        return false;
    };
    entries.iter().all(|name| {
        let below: Vec<&Path> = keep
            .iter()
            .filter_map(|k| k.strip_prefix(name).ok())
            .collect();
        if below.iter().any(|rest| rest.as_os_str().is_empty()) {
            return true;
        }
        let sub = c_name(name).and_then(|n| open_dir(dir.as_raw_fd(), &n));
        !below.is_empty() && sub.is_ok_and(|sub| holds_only(&sub, &below))
    })
}

/// The names in the open folder `dir` (`.` and `..` left out), read from its start.
fn names(dir: &File) -> io::Result<Vec<OsString>> {
    // SAFETY: lseek on a directory descriptor we own rewinds its listing.
    if unsafe { libc::lseek(dir.as_raw_fd(), 0, libc::SEEK_SET) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let mut found = Vec::new();
    let mut buf = [0u64; 512];
    loop {
        // SAFETY: getdents64 writes at most the buffer's size into it.
        let n = unsafe {
            libc::syscall(
                libc::SYS_getdents64,
                dir.as_raw_fd(),
                buf.as_mut_ptr(),
                std::mem::size_of_val(&buf),
            )
        };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Ok(found);
        }
        // SAFETY: the kernel wrote n bytes of buf.
        let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), n as usize) };
        let mut at = 0;
        while at + 19 <= bytes.len() {
            // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
            let reclen = u16::from_ne_bytes([bytes[at + 16], bytes[at + 17]]) as usize;
            let name_bytes = &bytes[at + 19..(at + reclen).min(bytes.len())];
            let name = &name_bytes[..name_bytes.iter().position(|&b| b == 0).unwrap_or(0)];
            at += reclen.max(1);
            if name != b"." && name != b".." {
                found.push(OsStr::from_bytes(name).to_os_string());
            }
        }
    }
}

/// A folder opened read-only without following a link (nor blocking, were it a FIFO).
fn open_dir(at: libc::c_int, name: &CStr) -> io::Result<File> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: name is NUL-terminated; the result is a new descriptor we then own.
    let fd = cvt(unsafe { libc::openat(at, name.as_ptr(), flags | libc::O_NONBLOCK) })?;
    // SAFETY: fd was just opened and is owned by nobody else.
    Ok(unsafe { File::from_raw_fd(fd) })
}

fn c_path(path: &Path) -> io::Result<CString> {
    c_name(path.as_os_str())
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::other("NUL in a path"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new folder, in memory where the machine has a writable /dev/shm (a 30,000-level tree
    /// takes a minute on a busy disk, a second there).
    fn scratch(tag: &str) -> PathBuf {
        let shm = Path::new("/dev/shm");
        let writable = std::fs::metadata(shm).is_ok_and(|m| m.is_dir())
            && std::fs::write(shm.join(format!("scrub-probe-{}", std::process::id())), b"")
                .and_then(|_| {
                    std::fs::remove_file(shm.join(format!("scrub-probe-{}", std::process::id())))
                })
                .is_ok();
        let parent = if writable {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = parent.join(format!(
            "scrub-{tag}-{}-{:x}",
            std::process::id(),
            crate::liveness::random_u64()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A chain of `depth` folders below `dir`, each entered by descriptor (the path would be
    /// far longer than PATH_MAX), with a file at the bottom.
    fn deep_chain(dir: &Path, depth: usize) {
        let mut current = open_dir(libc::AT_FDCWD, &c_path(dir).unwrap()).unwrap();
        for _ in 0..depth {
            // SAFETY: mkdirat with a NUL-terminated name relative to a descriptor we own.
            let made = unsafe { libc::mkdirat(current.as_raw_fd(), c"d".as_ptr(), 0o755) };
            assert_eq!(made, 0);
            current = open_dir(current.as_raw_fd(), c"d").unwrap();
        }
        let flags = libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC;
        // SAFETY: openat with a NUL-terminated name; the descriptor is closed at once.
        let fd = unsafe { libc::openat(current.as_raw_fd(), c"bottom".as_ptr(), flags, 0o644) };
        assert!(fd >= 0);
        // SAFETY: the descriptor just opened.
        unsafe { libc::close(fd) };
    }

    #[test]
    fn a_tree_too_deep_for_a_path_or_a_stack_is_emptied() {
        let dir = scratch("deep");
        deep_chain(&dir, 30_000);
        // Run on a small stack: removal must not recurse per level.
        let emptied = {
            let dir = dir.clone();
            std::thread::Builder::new()
                .stack_size(64 * 1024)
                .spawn(move || empty(&dir, 0o700, &[]))
                .unwrap()
                .join()
                .unwrap()
        };
        emptied.unwrap();
        let folder = File::open(&dir).unwrap();
        assert!(is_pristine(&folder, 0o700, &[]));
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn closed_folders_and_odd_names_are_removed_and_kept_paths_stay() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("closed");
        std::fs::create_dir_all(dir.join("k/l")).unwrap();
        std::fs::write(dir.join("k/l/m"), b"").unwrap();
        std::fs::write(dir.join("k/n"), b"").unwrap();
        let odd = OsStr::from_bytes(b"caf\xe9");
        std::fs::create_dir_all(dir.join(odd).join("x/y")).unwrap();
        std::fs::write(dir.join(odd).join("x/y/z"), b"z").unwrap();
        std::os::unix::fs::symlink("/etc", dir.join("link")).unwrap();
        let closed = dir.join(odd).join("x");
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();

        let folder = File::open(&dir).unwrap();
        assert!(!is_pristine(&folder, 0o700, &[PathBuf::from("k/l/m")]));
        empty(&dir, 0o700, &[PathBuf::from("k/l/m")]).unwrap();
        assert!(is_pristine(&folder, 0o700, &[PathBuf::from("k/l/m")]));
        assert!(dir.join("k/l/m").exists());
        assert!(!dir.join("k/n").exists());
        assert!(
            Path::new("/etc").is_dir(),
            "the link was removed, not followed"
        );
        assert!(empty(&dir, 0o700, &[PathBuf::from("k/gone")]).is_err());
        remove(&dir);
        assert!(!dir.exists());
    }
}
