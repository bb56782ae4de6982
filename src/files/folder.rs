//! Every file grundy writes, written through the descriptor of the folder it goes into
//! ([`Folder`]), never by a path: a folder is opened once (below another one, one name at a time
//! with `O_NOFOLLOW | O_DIRECTORY`, made with `mkdirat` where missing), and what is written
//! in it stays in it even when a folder on the way is swapped for a link meanwhile. A file is
//! written whole to a temporary name in its folder (`O_CREAT | O_EXCL | O_NOFOLLOW`), flushed
//! to the disk, then renamed within that folder: over a regular file only, or, where nothing may
//! be replaced, only onto a free name (`renameat2(RENAME_NOREPLACE)`). Nothing else (a folder, a
//! link, a FIFO, a device) is ever replaced, and no link is ever written through.
//!
//! Trees (packages, fixtures roots) are written through [`super::beneath`], which opens their
//! folders from the root's descriptor; the fixture store, report files and the checkout's files
//! start from a folder opened by its path (links on the way to it are the user's choice).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawDir, RenameFlags};
use rustix::io::Errno;

mod error;

pub use error::kind;
use error::Why;
pub use error::WriteError;

/// How many temporary names are tried before giving up (each taken one is a rare collision).
const TEMPORARY_TRIES: usize = 64;

/// Whether an existing file at the destination may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    Keep,
    Replace,
}

/// What stands at a name, a link not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Missing,
    File,
    /// Anything but a regular file, in words: `a directory`, `a symbolic link`, ...
    Other(&'static str),
}

/// A folder opened for writing into: its descriptor, and its path for messages.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    path: PathBuf,
}

impl Folder {
    /// Opens the folder at `path`, following links on the way to it (the caller's choice).
    pub fn open(path: &Path) -> Result<Folder, WriteError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        match rustix::fs::open(path, flags, Mode::empty()) {
            Ok(fd) => Ok(Folder {
                fd,
                path: path.to_path_buf(),
            }),
            Err(errno) => Err(WriteError::io(path, errno.into())),
        }
    }

    /// The folder of the open descriptor `fd`, whose path is `path`, as a descriptor of its own.
    pub(super) fn of(fd: BorrowedFd<'_>, path: &Path) -> Result<Folder, WriteError> {
        let fd = rustix::io::fcntl_dupfd_cloexec(fd, 0)
            .map_err(|errno| WriteError::io(path, errno.into()))?;
        Ok(Folder {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The descriptor, for a tree rooted here.
    pub(super) fn into_fd(self) -> OwnedFd {
        self.fd
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `name` in this folder, for messages.
    pub fn join(&self, name: &OsStr) -> PathBuf {
        self.path.join(name)
    }

    /// The folder `name` in this one, never through a link; `None` when nothing is there.
    pub fn open_folder(&self, name: &OsStr) -> Result<Option<Folder>, WriteError> {
        let path = self.name(name)?;
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => Ok(Some(Folder { fd, path })),
            Err(Errno::NOENT) => Ok(None),
            // A link (`ELOOP`, or `ENOTDIR` where a folder is asked for) or another file.
            Err(Errno::LOOP | Errno::NOTDIR) => Err(match self.stat(name)? {
                Some((FileType::Symlink, _)) => WriteError::new(path, Why::Link),
                Some((other, _)) => WriteError::new(path, Why::NotFolder(other)),
                // Removed meanwhile: told as missing.
                None => WriteError::io(&path, Errno::NOENT.into()),
            }),
            Err(errno) => Err(WriteError::io(&path, errno.into())),
        }
    }

    /// The folder `name` in this one, made (and made durable here) when missing.
    pub fn make_folder(&self, name: &OsStr) -> Result<Folder, WriteError> {
        if let Some(folder) = self.open_folder(name)? {
            return Ok(folder);
        }
        match self.create_folder(name) {
            // Made by someone else meanwhile: opened like any folder.
            Err(error) if error.already_exists() => self
                .open_folder(name)?
                .ok_or_else(|| WriteError::io(&self.join(name), Errno::NOENT.into())),
            Err(error) => Err(error),
            Ok(made) => self.sync().map(|()| made),
        }
    }

    /// Makes the folder `name` in this one, which must not exist (not yet durably: a folder
    /// that files are published into is made by [`Folder::make_folder`]).
    pub fn create_folder(&self, name: &OsStr) -> Result<Folder, WriteError> {
        let path = self.name(name)?;
        rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777))
            .map_err(|errno| WriteError::io(&path, errno.into()))?;
        self.open_folder(name)?
            .ok_or_else(|| WriteError::io(&path, Errno::NOENT.into()))
    }

    /// What stands at `name`, a link not followed.
    pub fn entry(&self, name: &OsStr) -> Result<Entry, WriteError> {
        Ok(match self.stat(name)? {
            None => Entry::Missing,
            Some((FileType::RegularFile, _)) => Entry::File,
            Some((other, _)) => Entry::Other(kind(other)),
        })
    }

    /// What kind of file stands at `name` (a link not followed); `None` when nothing does.
    pub fn file_type(&self, name: &OsStr) -> Result<Option<FileType>, WriteError> {
        Ok(self.stat(name)?.map(|(kind, _)| kind))
    }

    /// The type and permission bits of what stands at `name` (a link not followed).
    fn stat(&self, name: &OsStr) -> Result<Option<(FileType, Mode)>, WriteError> {
        let path = self.name(name)?;
        match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some((
                FileType::from_raw_mode(stat.st_mode),
                Mode::from_raw_mode(stat.st_mode),
            ))),
            Err(Errno::NOENT) => Ok(None),
            Err(errno) => Err(WriteError::io(&path, errno.into())),
        }
    }

    /// The permissions of the regular file `name`, which is to be replaced; an error when it is
    /// missing or anything else.
    pub fn replaceable(&self, name: &OsStr) -> Result<Mode, WriteError> {
        match self.stat(name)? {
            Some((FileType::RegularFile, mode)) => Ok(mode),
            Some((other, _)) => Err(WriteError::new(self.join(name), Why::NotReplaced(other))),
            None => Err(WriteError::io(&self.join(name), Errno::NOENT.into())),
        }
    }

    /// Writes `bytes` as the file `name`, atomically: a reader sees the old file or the new one,
    /// whole. A regular file there is replaced (keeping its permissions) under
    /// [`Existing::Replace`] and refused under [`Existing::Keep`]; anything else is never
    /// replaced. New files get 0666 less the umask, as any tool gives them.
    pub fn write(&self, name: &OsStr, bytes: &[u8], existing: Existing) -> Result<(), WriteError> {
        let path = self.name(name)?;
        self.write_with(name, existing, |file| {
            file.write_all(bytes)
                .map_err(|error| WriteError::io(&path, error))
        })
    }

    /// Writes the file `name` as `fill` writes it, atomically and by the rules of
    /// [`Folder::write`], without holding it whole: `fill` writes into the temporary file that
    /// becomes `name`. When `fill` fails, the temporary file is removed and nothing replaced.
    pub fn write_with<T, E: From<WriteError>>(
        &self,
        name: &OsStr,
        existing: Existing,
        fill: impl FnOnce(&mut File) -> Result<T, E>,
    ) -> Result<T, E> {
        let path = self.name(name)?;
        let mode = match (self.stat(name)?, existing) {
            (None, _) => None,
            (Some((FileType::RegularFile, mode)), Existing::Replace) => Some(mode),
            (Some((other, _)), Existing::Keep) => {
                return Err(WriteError::new(path, Why::Exists(other)).into())
            }
            (Some((other, _)), Existing::Replace) => {
                return Err(WriteError::new(path, Why::NotReplaced(other)).into())
            }
        };
        let (temporary, mut file) = self.temporary(mode, &path)?;
        let filled = fill(&mut file).and_then(|made| {
            file.sync_all()
                .map_err(|error| WriteError::io(&path, error))?;
            Ok(made)
        });
        drop(file);
        let moved = filled.and_then(|made| {
            match existing {
                Existing::Keep => self.move_new(&temporary, self, name),
                Existing::Replace => self.rename(&temporary, self, name),
            }?;
            Ok(made)
        });
        if moved.is_err() {
            let _ = self.remove(&temporary);
        }
        let made = moved?;
        self.sync()?;
        Ok(made)
    }

    /// A new, empty temporary file here (`.grundy-` and six letters or digits, the names
    /// discovery sweeps when a killed grundy left one), with `mode` as [`Folder::create_new`]
    /// gives it: its name, and it open for writing.
    fn temporary(
        &self,
        mode: Option<Mode>,
        for_path: &Path,
    ) -> Result<(OsString, File), WriteError> {
        for _ in 0..TEMPORARY_TRIES {
            let name = temporary_name();
            match self.open_new(&name, mode) {
                Err(error) if error.already_exists() => continue,
                Err(error) => return Err(error.instead_of(for_path)),
                Ok(file) => return Ok((name, file)),
            }
        }
        Err(WriteError::io(
            for_path,
            io::Error::other("no free temporary name beside it"),
        ))
    }

    /// Creates the file `name`, which must not exist, with `bytes` and flushes it to the disk;
    /// with `mode` its permissions, else 0666 less the umask. A file cut short is removed.
    pub fn create_new(
        &self,
        name: &OsStr,
        bytes: &[u8],
        mode: Option<Mode>,
    ) -> Result<(), WriteError> {
        let path = self.name(name)?;
        let mut file = self.open_new(name, mode)?;
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|error| {
                let _ = self.remove(name);
                WriteError::io(&path, error)
            })
    }

    /// Creates the file `name`, which must not exist, empty and open for writing; with `mode`
    /// its permissions, else 0666 less the umask. A file whose permissions cannot be set is
    /// removed.
    fn open_new(&self, name: &OsStr, mode: Option<Mode>) -> Result<File, WriteError> {
        let path = self.name(name)?;
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o666))
            .map_err(|errno| WriteError::io(&path, errno.into()))?;
        if let Some(mode) = mode {
            if let Err(errno) = rustix::fs::fchmod(&fd, mode) {
                let _ = self.remove(name);
                return Err(WriteError::io(&path, errno.into()));
            }
        }
        Ok(File::from(fd))
    }

    /// Moves `from` (in this folder) to `name` in `to`, unless something stands there.
    pub fn move_new(&self, from: &OsStr, to: &Folder, name: &OsStr) -> Result<(), WriteError> {
        let path = to.name(name)?;
        let moved = rustix::fs::renameat_with(&self.fd, from, &to.fd, name, RenameFlags::NOREPLACE);
        let moved = match moved {
            // A filesystem without RENAME_NOREPLACE: a hard link never replaces either.
            Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
                rustix::fs::linkat(&self.fd, from, &to.fd, name, AtFlags::empty())
                    .and_then(|()| rustix::fs::unlinkat(&self.fd, from, AtFlags::empty()))
            }
            moved => moved,
        };
        match moved {
            Ok(()) => Ok(()),
            Err(Errno::EXIST) => {
                let there = to.stat(name).ok().flatten();
                let kind = there.map_or(FileType::RegularFile, |(kind, _)| kind);
                Err(WriteError::new(path, Why::Exists(kind)))
            }
            Err(errno) => Err(WriteError::io(&path, errno.into())),
        }
    }

    /// Renames `from` (in this folder) to `name` in `to`, replacing what stands there.
    pub fn rename(&self, from: &OsStr, to: &Folder, name: &OsStr) -> Result<(), WriteError> {
        let path = to.name(name)?;
        rustix::fs::renameat(&self.fd, from, &to.fd, name)
            .map_err(|errno| WriteError::io(&path, errno.into()))
    }

    /// Removes the file (or link) `name`.
    pub fn remove(&self, name: &OsStr) -> Result<(), WriteError> {
        let path = self.name(name)?;
        rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())
            .map_err(|errno| WriteError::io(&path, errno.into()))
    }

    /// Removes the regular file `name`: `false` when nothing is there; anything else is left,
    /// and an error.
    pub fn remove_file(&self, name: &OsStr) -> Result<bool, WriteError> {
        match self.stat(name)? {
            None => Ok(false),
            Some((FileType::RegularFile, _)) => self.remove(name).map(|()| true),
            Some((other, _)) => Err(WriteError::new(self.join(name), Why::NotRemoved(other))),
        }
    }

    /// Removes the empty folder `name`.
    pub fn remove_folder(&self, name: &OsStr) -> Result<(), WriteError> {
        let path = self.name(name)?;
        rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR)
            .map_err(|errno| WriteError::io(&path, errno.into()))
    }

    /// The first `limit` bytes of the file `name` (a link not followed); `None` when it is
    /// missing, an error when it is not a regular file.
    pub fn read(&self, name: &OsStr, limit: u64) -> Result<Option<Vec<u8>>, WriteError> {
        let path = self.name(name)?;
        let flags = OFlags::RDONLY | OFlags::NONBLOCK;
        let Some(file) = self
            .open_file(name, flags)
            .map_err(|e| WriteError::io(&path, e))?
        else {
            return Ok(None);
        };
        let kind = FileType::from_raw_mode(
            rustix::fs::fstat(&file)
                .map_err(|errno| WriteError::io(&path, errno.into()))?
                .st_mode,
        );
        if kind != FileType::RegularFile {
            return Err(WriteError::new(path, Why::NotRead(kind)));
        }
        let mut bytes = Vec::new();
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(|error| WriteError::io(&path, error))?;
        Ok(Some(bytes))
    }

    /// Opens the file `name` with `flags` (`O_CREAT` makes it, 0666 less the umask), never
    /// through a link; `None` when it is missing.
    pub fn open_file(&self, name: &OsStr, flags: OFlags) -> io::Result<Option<File>> {
        let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => Ok(Some(File::from(fd))),
            Err(Errno::NOENT) => Ok(None),
            Err(errno) => Err(errno.into()),
        }
    }

    /// Calls `visit` with the name of each entry here (`.` and `..` left out) and whether it
    /// is a folder (a link is not).
    pub fn for_each_entry(
        &self,
        mut visit: impl FnMut(&OsStr, FileType),
    ) -> Result<(), WriteError> {
        each_entry(self.fd.as_fd(), |name, kind| {
            visit(OsStr::from_bytes(name), kind)
        })
        .map_err(|errno| WriteError::io(&self.path, errno.into()))
    }

    /// Opens `name` for writing into it as it is (no file made, nothing truncated, no link
    /// followed): a device or a FIFO, which a report is written into (a FIFO: once a reader
    /// opens it).
    pub fn open_for_writing(&self, name: &OsStr) -> Result<File, WriteError> {
        let path = self.name(name)?;
        let flags = OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC;
        rustix::fs::openat(&self.fd, name, flags, Mode::empty())
            .map(File::from)
            .map_err(|errno| WriteError::io(&path, errno.into()))
    }

    /// Flushes this folder's entries (new names, renames) to the disk.
    pub fn sync(&self) -> Result<(), WriteError> {
        rustix::fs::fsync(&self.fd).map_err(|errno| WriteError::io(&self.path, errno.into()))
    }

    /// Whether `name` here and `other` in `folder` are one file (a hard link of each other).
    pub fn same_file(&self, name: &OsStr, folder: &Folder, other: &OsStr) -> bool {
        let identity = |f: &Folder, n: &OsStr| {
            rustix::fs::statat(&f.fd, n, AtFlags::SYMLINK_NOFOLLOW).map(|s| (s.st_dev, s.st_ino))
        };
        matches!((identity(self, name), identity(folder, other)), (Ok(a), Ok(b)) if a == b)
    }

    /// Locks this folder with `flock` through a descriptor of its own, held by the file returned
    /// (a lock belongs to an open of the folder; this folder's own stays free for writing).
    pub fn lock(&self, operation: rustix::fs::FlockOperation) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let file = File::from(rustix::fs::openat(&self.fd, ".", flags, Mode::empty())?);
        flock(&file, operation)?;
        Ok(file)
    }

    /// The path of `name` here, checked to be one plain name (no `/`, not `.` or `..`).
    fn name(&self, name: &OsStr) -> Result<PathBuf, WriteError> {
        let bytes = name.as_bytes();
        let path = self.join(name);
        if bytes.is_empty() || bytes == b"." || bytes == b".." || bytes.contains(&b'/') {
            return Err(WriteError::new(path, Why::NotAName));
        }
        Ok(path)
    }
}

/// Calls `visit` with the name and type of each entry of the open folder `folder` (`.` and
/// `..` left out, links not followed), in the order the file system lists them, without a path
/// or an allocation per entry.
pub(super) fn each_entry(
    folder: BorrowedFd<'_>,
    mut visit: impl FnMut(&[u8], FileType),
) -> Result<(), Errno> {
    // About 1,000 entries per `getdents` call.
    let mut buffer = vec![MaybeUninit::uninit(); 32 << 10];
    let mut entries = RawDir::new(folder, &mut buffer);
    while let Some(entry) = entries.next() {
        let entry = entry?;
        let name = entry.file_name();
        if matches!(name.to_bytes(), b"." | b"..") {
            continue;
        }
        let kind = match entry.file_type() {
            // A file system that does not say (`DT_UNKNOWN`) is asked.
            FileType::Unknown => FileType::from_raw_mode(
                rustix::fs::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW)?.st_mode,
            ),
            kind => kind,
        };
        visit(name.to_bytes(), kind);
    }
    Ok(())
}

/// Takes (or changes, or with a non-blocking operation tries) a `flock` on `file`, again when a
/// signal interrupted the wait.
pub fn flock(file: &std::fs::File, operation: rustix::fs::FlockOperation) -> std::io::Result<()> {
    loop {
        match rustix::fs::flock(file, operation) {
            Err(rustix::io::Errno::INTR) => continue,
            done => return done.map_err(Into::into),
        }
    }
}

/// What `metadata` says a file is, in words (see [`kind`]).
pub fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::MetadataExt;
    kind(FileType::from_raw_mode(metadata.mode()))
}

/// A fresh temporary name: `.grundy-` and six letters or digits, from the process, a counter
/// and the clock (a name found taken is drawn again).
fn temporary_name() -> OsString {
    static DRAWN: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // Mixed, so nearby inputs give unrelated names.
    let mut state = crate::seeds::mix(
        nanos
            ^ (u64::from(std::process::id()) << 32)
            ^ DRAWN
                .fetch_add(1, Ordering::Relaxed)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut name = b".grundy-".to_vec();
    for _ in 0..6 {
        name.push(DIGITS[(state % 62) as usize]);
        state /= 62;
    }
    OsString::from_vec(name)
}

#[cfg(test)]
#[path = "folder_tests.rs"]
mod tests;
