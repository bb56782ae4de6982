//! Where a report file goes (`--junit FILE`, and any later option naming a report file): the
//! one place that decides what may stand at the path and how the report gets there.
//!
//! - Nothing, or a regular file: the report is written atomically (a temporary file in the same
//!   folder, flushed, then renamed over it; a replaced file keeps its permissions), so CI never
//!   reads half a report.
//! - A character device (a terminal, `/dev/null`, `/dev/full`) or a FIFO: opened as it is (no
//!   file made, nothing truncated, no link followed) and written into; a FIFO waits for its
//!   reader. A write it refuses (`/dev/full`: no space) is the run's error, exit 2.
//! - A link to grundy's own standard output or error (`/dev/stdout`, `/dev/stderr`,
//!   `/dev/fd/1`: the path leads to the very file that stream is): the report is written to that
//!   stream, after what was printed there.
//! - Any other symbolic link: refused, saying where it leads, unless `--follow-report-links`;
//!   then the path it leads to is taken by these rules. The link itself is never replaced.
//! - A folder, a socket, a block device: refused, and never replaced.
//!
//! Links in the folders on the way to the path are followed as usual: they are where the user
//! keeps their files. Only the last name is looked at, through the descriptor of its folder.

use std::ffi::OsStr;
use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use rustix::fs::FileType;

use crate::files::{kind, Existing, Folder, WriteError};

/// How many links `--follow-report-links` passes on the way to a report (the kernel's limit).
const MAX_LINKS: usize = 40;

/// A report file's path, and whether a link there may be followed.
#[derive(Clone, Debug)]
pub struct Destination {
    pub path: PathBuf,
    pub follow_links: bool,
}

/// Why a report was not written where its path says.
#[derive(Debug)]
pub enum DestinationError {
    /// A folder could not be opened, or a file not written.
    Write(WriteError),
    /// A symbolic link, and the user did not say to follow it.
    Link { path: PathBuf, target: PathBuf },
    /// Links leading to links, more than [`MAX_LINKS`] of them.
    TooManyLinks(PathBuf),
    /// What stands there is no file a report can be written as or into.
    Unwritable { path: PathBuf, kind: FileType },
    /// The path ends in no name (`/`, `..`).
    NoName(PathBuf),
    /// A device or FIFO, or grundy's standard error, refused the report.
    Refused { path: PathBuf, error: io::Error },
    /// grundy's standard output (a link to it named) would not take the report.
    Stdout(super::LostReport),
}

impl Destination {
    /// The destination of a report option's `path`, if given, and `--follow-report-links`.
    pub fn of(path: &Option<PathBuf>, follow_links: bool) -> Option<Destination> {
        path.clone().map(|path| Destination { path, follow_links })
    }

    /// Writes `bytes` as the report, by the rules of the module comment. A standard output that
    /// refuses it is a [`super::LostReport`], as when the report itself is printed there.
    pub fn write(&self, bytes: &[u8]) -> Result<(), DestinationError> {
        let mut path = self.path.clone();
        for _ in 0..=MAX_LINKS {
            let (folder, name) = open_parent(&path)?;
            let kind = folder.file_type(name).map_err(DestinationError::Write)?;
            match kind {
                None | Some(FileType::RegularFile) => {
                    let written = folder.write(name, bytes, Existing::Replace);
                    return written.map_err(DestinationError::Write);
                }
                Some(FileType::CharacterDevice | FileType::Fifo) => {
                    let file = folder
                        .open_for_writing(name)
                        .map_err(DestinationError::Write)?;
                    return write_into(file, &path, bytes);
                }
                Some(FileType::Symlink) => {
                    if let Some(stream) = own_stream(&path) {
                        return stream.write(&path, bytes);
                    }
                    let target = std::fs::read_link(&path)
                        .map_err(|error| DestinationError::Write(WriteError::io(&path, error)))?;
                    if !self.follow_links {
                        return Err(DestinationError::Link { path, target });
                    }
                    path = folder.path().join(target);
                }
                Some(kind) => return Err(DestinationError::Unwritable { path, kind }),
            }
        }
        Err(DestinationError::TooManyLinks(self.path.clone()))
    }
}

/// The folder holding `path`, opened (links on the way followed; made when missing, as for any
/// new file the user names), and `path`'s last name.
fn open_parent(path: &Path) -> Result<(Folder, &OsStr), DestinationError> {
    let Some(Component::Normal(name)) = path.components().next_back() else {
        return Err(DestinationError::NoName(path.to_path_buf()));
    };
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent)
        .map_err(|error| DestinationError::Write(WriteError::io(parent, error)))?;
    let folder = Folder::open(parent).map_err(DestinationError::Write)?;
    Ok((folder, name))
}

/// Writes `bytes` into a device or FIFO opened for writing, once it is seen to be one still (a
/// regular file swapped in meanwhile would be written over in place, not replaced whole).
fn write_into(mut file: File, path: &Path, bytes: &[u8]) -> Result<(), DestinationError> {
    let refused = |error| DestinationError::Refused {
        path: path.to_path_buf(),
        error,
    };
    let kind = FileType::from_raw_mode(file.metadata().map_err(refused)?.mode());
    if !matches!(kind, FileType::CharacterDevice | FileType::Fifo) {
        return Err(DestinationError::Unwritable {
            path: path.to_path_buf(),
            kind,
        });
    }
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(refused)
}

/// One of grundy's own standard streams.
#[derive(Clone, Copy)]
enum Stream {
    Output,
    Error,
}

/// The stream whose file the link at `path` leads to (`/dev/stdout` to standard output), if
/// any: the same device and inode as the stream's open file.
fn own_stream(path: &Path) -> Option<Stream> {
    let there = std::fs::metadata(path).ok()?;
    let same = |stream: &dyn AsFd| {
        rustix::fs::fstat(stream)
            .is_ok_and(|stat| stat.st_dev == there.dev() && stat.st_ino == there.ino())
    };
    if same(&io::stdout()) {
        Some(Stream::Output)
    } else if same(&io::stderr()) {
        Some(Stream::Error)
    } else {
        None
    }
}

impl Stream {
    /// Writes `bytes` to the stream, after whatever was printed there before.
    fn write(self, path: &Path, bytes: &[u8]) -> Result<(), DestinationError> {
        match self {
            Stream::Output => {
                let mut out = io::stdout().lock();
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .map_err(|error| DestinationError::Stdout(super::LostReport(error)))
            }
            Stream::Error => {
                let mut out = io::stderr().lock();
                let written = out.write_all(bytes).and_then(|()| out.flush());
                written.map_err(|error| DestinationError::Refused {
                    path: path.to_path_buf(),
                    error,
                })
            }
        }
    }
}

impl fmt::Display for DestinationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DestinationError::Write(error) => error.fmt(f),
            DestinationError::Link { path, target } => write!(
                f,
                "`{}` is a symbolic link (to `{}`); a report is not written through a link, nor \
                 does it replace one: give the path it leads to, or --follow-report-links to \
                 follow it",
                path.display(),
                target.display()
            ),
            DestinationError::TooManyLinks(path) => write!(
                f,
                "`{}`: more than {MAX_LINKS} links on the way to a file (a loop of links?)",
                path.display()
            ),
            DestinationError::Unwritable { path, kind: what } => write!(
                f,
                "`{}` is {}; a report is written as a regular file (replacing one whole), into \
                 a character device or a FIFO, or to grundy's own standard output, and nothing \
                 else is ever replaced: give another path",
                path.display(),
                kind(*what)
            ),
            DestinationError::NoName(path) => write!(
                f,
                "`{}` names no file; give the report a file name",
                path.display()
            ),
            DestinationError::Refused { path, error } => {
                write!(f, "`{}` refused the report: {error}", path.display())
            }
            DestinationError::Stdout(lost) => lost.fmt(f),
        }
    }
}

impl std::error::Error for DestinationError {}

impl DestinationError {
    /// The report standard output would not take, when that is why.
    pub fn lost(&self) -> Option<&super::LostReport> {
        match self {
            DestinationError::Stdout(lost) => Some(lost),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "destination_tests.rs"]
mod tests;
