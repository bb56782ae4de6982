//! The build cache's folder and its entries: where it is, its lock, publishing a staged build,
//! verifying an entry before it is used, and sweeping what killed builds left. An entry is a
//! folder `<cache>/<key>/` holding one whole build; what the key covers is
//! [`crate::package::programs::Program::cache_key`]'s. Nothing here starts a program:
//! [`super`] fills a staging folder and asks for it to be published.
//!
//! - **Publishing.** A build is made in a staging folder `<cache>/.<key>.<pid>.<n>/` (the first
//!   free `<n>`: a pid may be another live grundy's in another PID namespace). When it is
//!   complete its manifest is written last, inside it, and the folder is renamed to `<key>/`: a
//!   folder under a key is a whole build or nothing. When another grundy publishes the same key
//!   first, its build is kept and ours dropped (equal keys are equal builds).
//! - **The lock.** The cache folder itself is `flock`ed (no lock file to leave behind). A build
//!   holds it shared from before its staging folder is made until that folder is published or
//!   removed, so a staging folder of a live grundy always has a shared lock over it.
//! - **The sweep.** A grundy killed while building leaves its staging folder. The first build of
//!   a grundy in a cache folder tries the lock exclusively, without waiting: when it gets it, no
//!   grundy is building there, so every staging folder is debris, and is removed; then it holds
//!   the lock shared like any build. While another grundy builds there, the sweep is left to a
//!   later run, which never blocks a build. On a filesystem without `flock`, builds go on
//!   without the lock and nothing is swept.
//! - **Verification.** An entry's manifest lists each folder, and each file with its size and
//!   SHA-256, by name. Before an entry is used its contents are listed again and compared: one
//!   that differs (a file changed or removed, one added, data a machine crash kept from the disk)
//!   is renamed away, removed, and the program built again. The digest costs a read of the build
//!   on every use; BENCHMARKS.md has what it costs against a hit without it. Since a damaged
//!   entry is caught this way, nothing is fsync'd.
//! - **Where.** `$CARGO_TARGET_DIR/grundy-build/`, else `target/grundy-build/` of the project
//!   (the nearest folder at or above the working directory holding `Cargo.toml` or
//!   `runner.toml`), else `.grundy-build/` beside the package. Never in the temporary folder.
//! - **Whose fault.** Every failure here is the host's ([`CacheError`]: the folder cannot be
//!   made, read or written, a disk is full): a judge error, never the program's compile error.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rustix::fs::FlockOperation;
use sha2::{Digest, Sha256};

use crate::files::flock;

/// The manifest's name inside an entry. A build that makes a file of this name fails
/// ([`super`] checks it).
pub const MANIFEST: &str = ".grundy-manifest";
/// The manifest's first line: an entry of another format fails verification.
const MANIFEST_HEADER: &[u8] = b"grundy build manifest 1\n";

/// A failure of the host on the build cache: never the program's fault.
#[derive(Clone, Debug, thiserror::Error)]
#[error("cannot {doing} `{}`: {error}", path.display())]
pub struct CacheError {
    doing: &'static str,
    path: PathBuf,
    error: Arc<io::Error>,
}

impl CacheError {
    pub fn new(doing: &'static str, path: &Path, error: io::Error) -> CacheError {
        CacheError {
            doing,
            path: path.to_path_buf(),
            error: Arc::new(error),
        }
    }
}

/// The cache folder for a problem rooted at `root`.
pub fn cache_folder(root: &Path) -> PathBuf {
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR").filter(|t| !t.is_empty()) {
        return PathBuf::from(target).join("grundy-build");
    }
    let here = std::env::current_dir().unwrap_or_default();
    let project = here
        .ancestors()
        .find(|dir| dir.join("Cargo.toml").is_file() || dir.join("runner.toml").is_file());
    match project {
        Some(project) => project.join("target").join("grundy-build"),
        None => root
            .parent()
            .unwrap_or(Path::new("."))
            .join(".grundy-build"),
    }
}

/// The cache folder, open for building: its lock held shared (where the filesystem has locks)
/// for as long as this lives.
pub struct Cache {
    folder: PathBuf,
    _lock: Option<File>,
}

impl Cache {
    /// Makes the cache folder if needed and takes its lock shared, after sweeping the debris of
    /// killed builds when no other grundy builds there (once per folder in a process).
    pub fn open(folder: &Path) -> Result<Cache, CacheError> {
        std::fs::create_dir_all(folder)
            .map_err(|e| CacheError::new("create the build cache folder", folder, e))?;
        let handle = File::open(folder)
            .map_err(|e| CacheError::new("open the build cache folder", folder, e))?;
        Ok(Cache {
            folder: folder.to_path_buf(),
            _lock: lock(folder, handle),
        })
    }

    /// Whether a whole build is under `key`. An entry whose contents differ from its manifest is
    /// removed, so the program is built again.
    pub fn lookup(&self, key: &str) -> Result<bool, CacheError> {
        let entry = self.folder.join(key);
        match entry.symlink_metadata() {
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(error) => return Err(CacheError::new("inspect the build", &entry, error)),
            Ok(_) => {}
        }
        if verified(&entry) {
            return Ok(true);
        }
        // Renamed away first (over an empty staging folder of its own), so it leaves its key at
        // once; what is left is debris, removed now or swept by a later run if this one is
        // killed.
        let doomed = self
            .new_staging(key)
            .map_err(|e| CacheError::new("create a staging folder in", &self.folder, e))?;
        match std::fs::rename(&entry, &doomed) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(error) => return Err(CacheError::new("remove the damaged build", &entry, error)),
            Ok(()) => {}
        }
        remove(&doomed).map_err(|e| CacheError::new("remove the damaged build", &doomed, e))?;
        Ok(false)
    }

    /// A new, empty staging folder for a build of `key`.
    pub fn stage<'a>(&'a self, key: &str) -> Result<Staging<'a>, CacheError> {
        let path = self
            .new_staging(key)
            .map_err(|e| CacheError::new("create a staging folder in", &self.folder, e))?;
        Ok(Staging {
            entry: self.folder.join(key),
            path,
            _cache: self,
        })
    }

    /// Makes `<cache>/.<key>.<pid>.<n>` with the first `n` this process has not used whose
    /// name is free: one taken belongs to a dead grundy that had this pid, or to a live one of
    /// another PID namespace sharing the cache, and is never touched.
    fn new_staging(&self, key: &str) -> io::Result<PathBuf> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = self
                .folder
                .join(format!(".{key}.{}.{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
                made => return made.map(|()| path),
            }
        }
    }
}

/// A build being made. Removed when dropped unless published.
pub struct Staging<'a> {
    path: PathBuf,
    entry: PathBuf,
    /// The cache, whose lock must outlive the staging folder.
    _cache: &'a Cache,
}

impl Staging<'_> {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Publishes the staged build under its key: its manifest written last, inside it, then the
    /// folder renamed into place. A build that another grundy published first is kept.
    pub fn publish(self) -> Result<(), CacheError> {
        let manifest_path = self.path.join(MANIFEST);
        let written = manifest(&self.path)
            .and_then(|text| File::create_new(&manifest_path)?.write_all(&text));
        written.map_err(|e| CacheError::new("write the manifest", &manifest_path, e))?;
        match std::fs::rename(&self.path, &self.entry) {
            Ok(()) => Ok(()),
            Err(_) if self.entry.is_dir() => Ok(()),
            Err(error) => Err(CacheError::new("publish the build as", &self.entry, error)),
        }
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        // Gone already once published; debris left by a failure here is swept later.
        let _ = remove(&self.path);
    }
}

/// The lock of the cache folder `folder` (open as `handle`) taken shared, after a sweep when it
/// can be had exclusively; `None` where the filesystem has no locks.
fn lock(folder: &Path, handle: File) -> Option<File> {
    static SWEPT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let swept = || SWEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if !swept().iter().any(|done| done == folder) {
        match flock(&handle, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {
                sweep(folder);
                swept().push(folder.to_path_buf());
            }
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return None,
        }
    }
    // Turns an exclusive lock into a shared one, or waits for a sweep to end.
    flock(&handle, FlockOperation::LockShared).ok()?;
    Some(handle)
}

/// Removes every staging folder in `folder`: called under the exclusive lock, which no grundy
/// would let be taken while it has one.
fn sweep(folder: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        if is_staging_name(&entry.file_name()) {
            // What cannot be removed now is tried again by the next sweep.
            let _ = remove(&entry.path());
        }
    }
}

/// Whether a name is a staging folder's: `.`, a key (32 hex digits), `.`, then the rest.
fn is_staging_name(name: &OsStr) -> bool {
    let bytes = name.as_bytes();
    bytes.len() > 34
        && bytes[0] == b'.'
        && bytes[1..33].iter().all(u8::is_ascii_hexdigit)
        && bytes[33] == b'.'
}

/// Removes a folder with its contents, or anything else at `path`.
fn remove(path: &Path) -> io::Result<()> {
    match path.symlink_metadata()?.is_dir() {
        true => std::fs::remove_dir_all(path),
        false => std::fs::remove_file(path),
    }
}

/// Whether the entry at `entry` holds what its manifest lists.
fn verified(entry: &Path) -> bool {
    if !entry.symlink_metadata().is_ok_and(|meta| meta.is_dir()) {
        return false;
    }
    let Ok(recorded) = std::fs::read(entry.join(MANIFEST)) else {
        return false;
    };
    manifest(entry).is_ok_and(|listed| listed == recorded)
}

/// The manifest of the build in `folder`: a header, then in name order a line per folder
/// (`d NAME`) and per regular file (`f SIZE SHA256 NAME`) below it, names relative with every
/// byte but printable ASCII (and `%`) written `%XX`, so any name is one line. Anything else (a
/// link, a device) is an error: a build holds none.
fn manifest(folder: &Path) -> io::Result<Vec<u8>> {
    let mut text = MANIFEST_HEADER.to_vec();
    let walk = walkdir::WalkDir::new(folder)
        .min_depth(1)
        .sort_by_file_name();
    for entry in walk {
        let entry = entry?;
        let relative = entry
            .path()
            .strip_prefix(folder)
            .expect("the walk stays below its folder");
        if relative == Path::new(MANIFEST) {
            continue;
        }
        let kind = entry.file_type();
        if kind.is_dir() {
            text.extend_from_slice(b"d ");
        } else if kind.is_file() {
            let (size, digest) = digest(entry.path())?;
            write!(text, "f {size} {digest} ")?;
        } else {
            return Err(io::Error::other(format!(
                "`{}` is neither a file nor a folder",
                entry.path().display()
            )));
        }
        escape(relative.as_os_str().as_bytes(), &mut text);
        text.push(b'\n');
    }
    Ok(text)
}

/// A file's size and SHA-256 (hex), from one read of it.
fn digest(path: &Path) -> io::Result<(u64, String)> {
    let mut file = File::open(path)?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0; 64 << 10];
    let mut size = 0u64;
    loop {
        let read = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        hash.update(&buffer[..read]);
        size += read as u64;
    }
    let hex = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((size, hex))
}

/// `name` with every byte but printable ASCII other than `%` as `%XX`.
fn escape(name: &[u8], out: &mut Vec<u8>) {
    for &byte in name {
        if byte.is_ascii_graphic() && byte != b'%' {
            out.push(byte);
        } else {
            out.extend_from_slice(format!("%{byte:02X}").as_bytes());
        }
    }
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
