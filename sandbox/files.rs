//! A run's working folder from the runner's side: placing the files a run is given before it
//! starts, and reading back or copying out the files it is asked for after it ends (emptying
//! it is scrub.rs's). What a program left there is hostile: reading never follows a symlink, a
//! FIFO or a device, and never leaves the folder.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

use crate::command::SetupError;
use crate::outcome::{ExportError, ExportFailure};
use crate::spec::{BoxFile, BoxFileKind};

/// How much of each collected file is read back.
pub(crate) const COLLECT_CAP: usize = 64 * 1024;

/// An error unless `path` is relative and stays inside its folder (no `..`, no root).
pub(crate) fn check_relative(path: &Path) -> Result<(), SetupError> {
    let inside = !path.as_os_str().is_empty()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if inside {
        Ok(())
    } else {
        Err(SetupError::Outside(path.to_path_buf()))
    }
}

/// Writes `files` into the (empty) folder `dir`: read-only files (mode 0444) and writable
/// directories, owned by `owner` when given (the box's user, when the runner is root).
pub(crate) fn place(dir: &Path, files: &[BoxFile], owner: Option<(u32, u32)>) -> io::Result<()> {
    for file in files {
        check_relative(&file.name).map_err(io::Error::other)?;
        let path = dir.join(&file.name);
        if let Some(parent) = path.parent() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(parent)?;
        }
        let mut mode = 0o444;
        match &file.kind {
            BoxFileKind::Bytes(bytes) => std::fs::write(&path, bytes)?,
            BoxFileKind::Copy(source) => {
                let meta = source.file().metadata()?;
                if !meta.is_file() {
                    return Err(io::Error::other(format!(
                        "cannot copy {} into the working folder: not a regular file",
                        file.name.display()
                    )));
                }
                copy_by_position(source.file(), meta.len(), &path).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot copy {}: {e}", file.name.display()),
                    )
                })?;
                if meta.permissions().mode() & 0o111 != 0 {
                    mode = 0o555;
                }
            }
            BoxFileKind::WritableDir => {
                writable(&path, true, owner)?;
                continue;
            }
            BoxFileKind::WritableCopy(source) => {
                copy_writable(source, &path, owner).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot copy {}: {e}", source.display()))
                })?;
                continue;
            }
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

/// Copies the first `size` bytes of `source` into a new file at `target`, reading by position
/// (the same open file may be copied by several runs at once).
fn copy_by_position(source: &File, size: u64, target: &Path) -> io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::FileExt;
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)?;
    let mut buf = vec![0u8; 256 * 1024];
    let mut at = 0u64;
    while at < size {
        let want = buf.len().min((size - at) as usize);
        let n = source.read_at(&mut buf[..want], at)?;
        if n == 0 {
            break; // the file shrank: copy what it has
        }
        out.write_all(&buf[..n])?;
        at += n as u64;
    }
    Ok(())
}

/// Makes `path` (a new folder, or a file already written) the program's: anyone may change it
/// (it lies in the run's own folder), and the box's user owns it when there is one.
fn writable(path: &Path, folder: bool, owner: Option<(u32, u32)>) -> io::Result<()> {
    let mode = if folder {
        std::fs::DirBuilder::new().mode(0o777).create(path)?;
        0o777
    } else {
        0o666
    };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
    }
    Ok(())
}

/// A writable copy at `target` of the host folder `source`: its regular files and folders,
/// never following a link nor copying a special file.
fn copy_writable(source: &Path, target: &Path, owner: Option<(u32, u32)>) -> io::Result<()> {
    if !std::fs::symlink_metadata(source)?.is_dir() {
        return Err(io::Error::other("not a folder"));
    }
    writable(target, true, owner)?;
    copy_entries(source, target, owner)
}

/// Writes the working folder `dir` of a run of `program`: a copy of its
/// [`Program::workdir_from`](crate::Program::workdir_from) folder, if any, then `files`.
pub(crate) fn place_for(
    dir: &Path,
    program: &crate::Program,
    files: &[BoxFile],
    owner: Option<(u32, u32)>,
) -> io::Result<()> {
    if let Some(source) = &program.workdir_from {
        if !std::fs::symlink_metadata(source)?.is_dir() {
            return Err(io::Error::other(format!(
                "cannot copy {} into the working folder: not a folder",
                source.display()
            )));
        }
        copy_entries(source, dir, owner).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot copy {}: {e}", source.display()))
        })?;
    }
    place(dir, files, owner)
}

/// Writable copies in the folder `target` of the regular files and folders in `source`.
fn copy_entries(source: &Path, target: &Path, owner: Option<(u32, u32)>) -> io::Result<()> {
    for entry in std::fs::read_dir(source)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let to = target.join(entry.file_name());
        if kind.is_dir() {
            copy_writable(&entry.path(), &to, owner)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &to)?;
            writable(&to, false, owner)?;
        }
    }
    Ok(())
}

/// The first COLLECT_CAP bytes of each of `paths` (relative to `dir`) that is a regular file,
/// reached without following any symlink.
pub(crate) fn collect(dir: &Path, paths: &[PathBuf]) -> Vec<(PathBuf, Vec<u8>)> {
    paths
        .iter()
        .filter_map(|p| Some((p.clone(), read_beneath(dir, p).ok()?)))
        .collect()
}

fn read_beneath(dir: &Path, relative: &Path) -> io::Result<Vec<u8>> {
    let file = open_beneath(dir, relative)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(COLLECT_CAP as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn c_path(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_bytes()).map_err(|_| io::Error::other("NUL in a path"))
}

/// `name` in the folder `at`, opened read-only without following a symlink (nor blocking on a
/// FIFO).
fn open_at(at: libc::c_int, name: &CString, flags: libc::c_int) -> io::Result<File> {
    let flags = flags | libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK;
    // SAFETY: name is NUL-terminated; the result is a new descriptor we then own.
    let fd = unsafe { libc::openat(at, name.as_ptr(), flags) };
    crate::sys::cvt(fd).map(|fd| {
        // SAFETY: fd was just opened and is owned by nobody else.
        unsafe { File::from_raw_fd(fd) }
    })
}

/// `relative` below `dir` (a file or a folder), reached without following any symlink.
fn open_beneath(dir: &Path, relative: &Path) -> io::Result<File> {
    check_relative(relative).map_err(io::Error::other)?;
    let mut current = open_at(libc::AT_FDCWD, &c_path(dir)?, libc::O_DIRECTORY)?;
    let parts: Vec<_> = relative
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        let name = c_path(Path::new(part.as_os_str()))?;
        let flags = if i + 1 == parts.len() {
            0
        } else {
            libc::O_DIRECTORY
        };
        current = open_at(current.as_raw_fd(), &name, flags)?;
    }
    Ok(current)
}

/// How deep a folder copied out may be, and how many entries it may hold in all: what a
/// compiler or build script makes is small and shallow, and a hostile one must not make the
/// runner recurse without end nor fill the host's disk with names.
const EXPORT_DEPTH: usize = 64;
const EXPORT_ENTRIES: usize = 100_000;

/// Copies each `(relative, host)` pair out of `dir` (a finished run's working folder, where
/// nothing runs any more): a regular file, or a folder with its regular files and folders;
/// symlinks and special files are left out, and nothing is followed out of `dir`. At most `cap`
/// bytes in all, EXPORT_DEPTH levels and EXPORT_ENTRIES entries. Returns the host paths
/// written, and why each pair that could not be copied whole was not (what it wrote of it is
/// removed).
pub(crate) fn export(
    dir: &Path,
    pairs: &[(PathBuf, PathBuf)],
    cap: u64,
) -> (Vec<PathBuf>, Vec<ExportFailure>) {
    let mut budget = Budget {
        bytes: cap,
        entries: EXPORT_ENTRIES,
    };
    let mut written = Vec::new();
    let mut failed = Vec::new();
    for (relative, host) in pairs {
        let mut these = Vec::new();
        let copied = match open_beneath(dir, relative) {
            Ok(source) => copy_out(source, host, 0, &mut budget, &mut these),
            Err(_) => Err(ExportError::Missing),
        };
        match copied {
            Ok(()) => written.extend(these.into_iter().map(|(path, _)| path)),
            Err(why) => {
                // What this pair made, deepest first (a folder that was there stays).
                for (path, _) in these.iter().rev().filter(|(_, made)| *made) {
                    crate::scrub::remove(path);
                }
                failed.push(ExportFailure {
                    relative: relative.clone(),
                    why,
                });
            }
        }
    }
    (written, failed)
}

/// What may still be copied out.
struct Budget {
    bytes: u64,
    entries: usize,
}

/// Copies `source` to `host`, adding each path written to `written` with whether it was made
/// here (a file is listed before its bytes are written, so a failed copy can be undone).
fn copy_out(
    source: File,
    host: &Path,
    depth: usize,
    budget: &mut Budget,
    written: &mut Vec<(PathBuf, bool)>,
) -> Result<(), ExportError> {
    let on_host = |error: io::Error| ExportError::Host {
        path: host.to_path_buf(),
        kind: error.kind(),
        message: error.to_string(),
    };
    if depth > EXPORT_DEPTH || budget.entries == 0 {
        return Err(ExportError::TooBig);
    }
    budget.entries -= 1;
    let meta = source.metadata().map_err(|_| ExportError::Missing)?;
    if meta.is_file() {
        if meta.len() > budget.bytes {
            return Err(ExportError::TooBig);
        }
        budget.bytes -= meta.len();
        let mut target = File::create(host).map_err(on_host)?;
        written.push((host.to_path_buf(), true));
        let mut reader = source.take(meta.len());
        // A read error is the run's folder's (it is gone or changed), a write error the host's.
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            let n = reader.read(&mut buf).map_err(|_| ExportError::Missing)?;
            if n == 0 {
                break;
            }
            io::Write::write_all(&mut target, &buf[..n]).map_err(on_host)?;
        }
        // Built programs keep their execute bits; nothing else of the mode is kept.
        let mode = if meta.permissions().mode() & 0o111 != 0 {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(host, std::fs::Permissions::from_mode(mode)).map_err(on_host)?;
    } else if meta.is_dir() {
        let made = host.symlink_metadata().is_err();
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o755)
            .create(host)
            .map_err(on_host)?;
        // Listed before its contents: undone deepest first, it is removed after them.
        written.push((host.to_path_buf(), made));
        let listing = Path::new("/proc/self/fd").join(source.as_raw_fd().to_string());
        let entries = std::fs::read_dir(listing).map_err(|_| ExportError::Missing)?;
        for entry in entries {
            let entry = entry.map_err(|_| ExportError::Missing)?;
            let kind = entry.file_type().map_err(|_| ExportError::Missing)?;
            if !(kind.is_file() || kind.is_dir()) {
                continue;
            }
            let name = c_path(Path::new(&entry.file_name())).map_err(|_| ExportError::Missing)?;
            let child = open_at(source.as_raw_fd(), &name, 0).map_err(|_| ExportError::Missing)?;
            copy_out(
                child,
                &host.join(entry.file_name()),
                depth + 1,
                budget,
                written,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_must_stay_inside() {
        assert!(check_relative(Path::new("feedback/judgemessage.txt")).is_ok());
        for bad in ["", "/etc/passwd", "../x", "a/../../b"] {
            assert!(check_relative(Path::new(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn collecting_never_follows_links() {
        let dir = std::env::temp_dir().join(format!(
            "files-{}-{:x}",
            std::process::id(),
            crate::liveness::random_u64()
        ));
        std::fs::create_dir_all(dir.join("d")).unwrap();
        std::fs::write(dir.join("d/real"), b"fine").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.join("d/link")).unwrap();
        std::os::unix::fs::symlink(dir.join("d"), dir.join("dirlink")).unwrap();
        std::fs::write(dir.join("big"), vec![b'x'; COLLECT_CAP * 2]).unwrap();
        let got = collect(
            &dir,
            &["d/real", "d/link", "dirlink/real", "big", "missing"].map(PathBuf::from),
        );
        let names: Vec<_> = got.iter().map(|(p, _)| p.to_str().unwrap()).collect();
        assert_eq!(names, ["d/real", "big"]);
        assert_eq!(got[0].1, b"fine");
        assert_eq!(got[1].1.len(), COLLECT_CAP);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
