//! The empty temporary working directory each run gets. Directories are made once per
//! concurrent run and emptied after each run instead of being made and removed every time
//! (creating and removing a directory costs more than a tiny program's whole run on some file
//! systems); all of them are removed at exit, and those of a runner that was killed are swept
//! by the next one.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const PREFIX: &str = "grundy-run-";

/// Emptied directories ready for the next run.
static POOL: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Every directory this process made, for removal at exit.
static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// An empty directory for one run; emptied (and returned to the pool) on drop.
pub(crate) struct WorkDir {
    path: PathBuf,
}

impl WorkDir {
    pub(crate) fn create() -> io::Result<WorkDir> {
        if let Some(path) = lock(&POOL).pop() {
            return Ok(WorkDir { path });
        }
        prepare_once();
        let path = make_temp_dir()?;
        lock(&CREATED).push(path.clone());
        Ok(WorkDir { path })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if empty(&self.path).is_ok() {
            lock(&POOL).push(std::mem::take(&mut self.path));
        } else {
            remove(&self.path);
            lock(&CREATED).retain(|p| p != &self.path);
        }
    }
}

fn lock(m: &'static Mutex<Vec<PathBuf>>) -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn make_temp_dir() -> io::Result<PathBuf> {
    let template = std::env::temp_dir().join(format!("{PREFIX}{}-XXXXXX", std::process::id()));
    let mut bytes = CString::new(template.into_os_string().into_vec())
        .map_err(|_| io::Error::other("temporary directory path contains a NUL byte"))?
        .into_bytes_with_nul();
    // SAFETY: bytes is a writable NUL-terminated template ending in XXXXXX.
    if unsafe { libc::mkdtemp(bytes.as_mut_ptr().cast()) }.is_null() {
        return Err(io::Error::last_os_error());
    }
    bytes.pop();
    Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

/// Removes everything inside `dir` and restores its mode, keeping the directory itself.
fn empty(dir: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Err(io::Error::other("not a directory any more"));
    }
    if meta.permissions().mode() & 0o7777 != 0o700 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            remove(&entry.path());
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// Removes `path` and everything under it, even directories the program made unreadable.
fn remove(path: &Path) {
    if std::fs::remove_dir_all(path).is_ok() {
        return;
    }
    make_removable(path);
    let _ = std::fs::remove_dir_all(path);
}

fn make_removable(dir: &Path) {
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            make_removable(&entry.path());
        }
    }
}

/// Once per process: remove our directories at exit, and sweep those of dead runners.
fn prepare_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: remove_all is a plain extern "C" fn without arguments.
        unsafe { libc::atexit(remove_all) };
        sweep_stale(&std::env::temp_dir());
    });
}

extern "C" fn remove_all() {
    for dir in std::mem::take(&mut *lock(&CREATED)) {
        remove(&dir);
    }
}

fn sweep_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let owner = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<i32>().ok());
        // SAFETY: signal 0 only checks whether the process exists.
        if owner.is_some_and(
            |pid| unsafe { libc::kill(pid, 0) } != 0 && crate::sys::errno() == libc::ESRCH,
        ) {
            remove(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_emptied_for_reuse_even_with_locked_directories() {
        let dir = WorkDir::create().unwrap();
        let path = dir.path().to_path_buf();
        let locked = path.join("a/b");
        std::fs::create_dir_all(&locked).unwrap();
        std::fs::write(locked.join("f"), b"x").unwrap();
        std::fs::write(path.join("g"), b"x").unwrap();
        std::fs::set_permissions(path.join("a"), std::fs::Permissions::from_mode(0o000)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o500)).unwrap();
        drop(dir);
        assert_eq!(std::fs::read_dir(&path).unwrap().count(), 0);
        remove_all();
        assert!(!path.exists());
    }
}
