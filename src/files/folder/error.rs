//! Why a file was not written ([`WriteError`]): the path it was to be written at (or the folder
//! on the way that stopped it) and the reason, rendered once for messages, a kind of file in
//! words ([`kind`]) among them. What is written, and how, is the parent module's.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;

/// Why a file was not written: where, and why.
#[derive(Debug)]
pub struct WriteError {
    path: PathBuf,
    why: Why,
}

#[derive(Debug)]
pub(super) enum Why {
    Io(io::Error),
    /// A folder on the way is a symbolic link: never written through.
    Link,
    /// A folder on the way is something else (a regular file, ...).
    NotFolder(FileType),
    /// The name is taken, by what is said, and may not be replaced.
    Exists(FileType),
    /// What stands there is not a regular file, so it is never replaced.
    NotReplaced(FileType),
    /// What stands there is not a regular file, so it is never removed.
    NotRemoved(FileType),
    /// What stands there is not a regular file, so it is not read.
    NotRead(FileType),
    /// Not one plain name (empty, `.`, `..`, or holding a `/`), or not a path below the root.
    NotAName,
}

impl WriteError {
    pub(super) fn new(path: PathBuf, why: Why) -> WriteError {
        WriteError { path, why }
    }

    pub(crate) fn io(path: &Path, error: io::Error) -> WriteError {
        WriteError::new(path.to_path_buf(), Why::Io(error))
    }

    /// A path that is not made of plain names below the folder it is written into.
    pub(crate) fn not_below(path: &Path) -> WriteError {
        WriteError::new(path.to_path_buf(), Why::NotAName)
    }

    /// The same reason, told of `path` (a temporary file's failure is its target's).
    pub(super) fn instead_of(self, path: &Path) -> WriteError {
        WriteError::new(path.to_path_buf(), self.why)
    }

    /// The name was taken: nothing was replaced.
    pub fn already_exists(&self) -> bool {
        match &self.why {
            Why::Exists(_) => true,
            Why::Io(error) => error.kind() == io::ErrorKind::AlreadyExists,
            _ => false,
        }
    }

    /// The file and the place it was moved from are on different filesystems.
    pub fn crosses_devices(&self) -> bool {
        matches!(&self.why, Why::Io(error) if error.kind() == io::ErrorKind::CrossesDevices)
    }

    /// A link, or anything else than a folder, stood where a folder was wanted.
    pub fn is_not_folder(&self) -> bool {
        matches!(self.why, Why::Link | Why::NotFolder(_))
    }

    /// What is wrong, in words, without the path.
    pub fn reason(&self) -> String {
        match &self.why {
            Why::Io(error) => format!("cannot write it: {error}"),
            Why::Link => "a symbolic link; grundy never writes through a link (it may lead \
                          anywhere, out of the folder being written) nor replaces one"
                .into(),
            Why::NotFolder(other) => format!(
                "{}, not a folder, so nothing can be written below it",
                kind(*other)
            ),
            Why::Exists(FileType::RegularFile) => "already exists; refusing to overwrite it".into(),
            Why::Exists(other) => format!(
                "already exists and is {}; grundy never replaces it",
                kind(*other)
            ),
            Why::NotReplaced(other) => format!(
                "{}, not a regular file; grundy never replaces it",
                kind(*other)
            ),
            Why::NotRemoved(other) => format!(
                "{}, not a regular file; grundy never removes it",
                kind(*other)
            ),
            Why::NotRead(other) => format!("{}, not a regular file; it is not read", kind(*other)),
            Why::NotAName => "not a plain path below the folder written into".into(),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.path.display(), self.reason())
    }
}

impl std::error::Error for WriteError {}

/// A file type in words, for errors: `a directory`, `a FIFO (named pipe)`, ...
pub fn kind(file_type: FileType) -> &'static str {
    match file_type {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a directory",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "not a regular file",
    }
}
