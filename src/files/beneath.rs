//! Reading the files of a tree (a problem package, a fixtures root) without ever leaving it, and
//! reading what was checked: the tree's root folder is opened once ([`Tree`]), and each file or
//! folder below it ([`TreePath`]: the root's descriptor and a relative path) is opened relative
//! to that descriptor by `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`, so neither a `..`
//! nor a link can reach out of the tree. Callers keep the open file, never a path to open again,
//! so a file swapped for a link after it was checked is not what they read.
//!
//! Where `openat2` is missing (kernels before 5.6, container seccomp profiles that refuse it)
//! the same guarantee comes from a walk one name at a time with `O_NOFOLLOW`, each link read and
//! its target walked here, refused when absolute or when it climbs above the root; the walk also
//! explains a refusal of the kernel's (which link leads where).
//!
//! Files are opened with `O_NONBLOCK`, so a FIFO cannot stall the open, then checked with
//! `fstat`: anything but a regular file where one is wanted (a FIFO, a socket, a device, a
//! folder) is an error naming what it is, before a single byte is read. A small file read whole
//! ([`TreePath::read`]) is checked by its first read instead, which a FIFO, socket, terminal or
//! folder refuses.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::{File, Metadata};
use std::hash::{Hash, Hasher};
use std::io::{self, Read};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;

use super::folder::{each_entry, kind_of};
use walk::{open_beneath, Want};

mod error;
mod walk;
mod write;

use error::Why;
pub use error::{OpenError, Scope};

/// How much [`TreePath::read`] asks of a file at first: a shorter file is read by that one read.
const FIRST_READ: usize = 16 << 10;

/// A tree's root folder, opened once; clones share the descriptor.
#[derive(Clone)]
pub struct Tree(Arc<Root>);

struct Root {
    /// `None` for the name of an input made in memory ([`TreePath::in_memory`]); shared by the
    /// trees that show the root under another path ([`Tree::shown_as`]).
    fd: Option<Arc<OwnedFd>>,
    path: PathBuf,
    scope: Scope,
}

impl Tree {
    /// Opens the folder `path` (links on the way to it are the caller's choice and followed).
    pub fn open(path: &Path, scope: Scope) -> Result<Tree, OpenError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
        let fd = rustix::fs::open(path, flags, Mode::empty()).map_err(|errno| OpenError {
            path: path.to_path_buf(),
            scope,
            why: Why::Io(errno.into()),
        })?;
        Ok(Tree(Arc::new(Root {
            fd: Some(Arc::new(fd)),
            path: path.to_path_buf(),
            scope,
        })))
    }

    /// The same root, opened once, its files named below `path`: the path a caller reached it
    /// by (relative, say, where it was opened by its absolute one), for messages.
    pub fn shown_as(&self, path: &Path) -> Tree {
        Tree(Arc::new(Root {
            fd: self.0.fd.clone(),
            path: path.to_path_buf(),
            scope: self.0.scope,
        }))
    }

    /// The root folder's path, as it was opened.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// What the tree is.
    pub fn scope(&self) -> Scope {
        self.0.scope
    }

    /// The file or folder at `relative` below the root (the root itself when empty). An
    /// absolute path or one climbing out with `..` is refused when it is opened.
    pub fn join(&self, relative: impl AsRef<Path>) -> TreePath {
        let relative = relative.as_ref().as_os_str().as_bytes();
        let root = self.0.path.as_os_str().as_bytes();
        let mut full = Vec::with_capacity(root.len() + 1 + relative.len());
        full.extend_from_slice(root);
        if !relative.is_empty() && !root.ends_with(b"/") {
            full.push(b'/');
        }
        let below = full.len();
        full.extend_from_slice(relative);
        TreePath {
            tree: self.clone(),
            full: PathBuf::from(OsString::from_vec(full)),
            below,
        }
    }

    /// The file at `path`, the root's path joined with names (as a walk of the root yields
    /// them), without copying it.
    pub fn at(&self, path: PathBuf) -> TreePath {
        let root = self.0.path.as_os_str().as_bytes();
        let bytes = path.as_os_str().as_bytes();
        match bytes.strip_prefix(root) {
            Some(rest) if rest.is_empty() || rest[0] == b'/' || root.ends_with(b"/") => {
                let below = root.len() + usize::from(rest.first() == Some(&b'/'));
                TreePath {
                    tree: self.clone(),
                    full: path,
                    below,
                }
            }
            _ => self.join(path),
        }
    }

    fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.0.fd.as_ref().map(|fd| fd.as_fd())
    }
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tree({})", self.0.path.display())
    }
}

/// A file or folder of a tree: the tree's root descriptor and a path relative to it. Its path
/// is for messages and for naming; reading goes through [`TreePath::open`] and its kin only.
#[derive(Clone)]
pub struct TreePath {
    tree: Tree,
    /// The root's path joined with the relative one.
    full: PathBuf,
    /// Where the relative path starts in `full`'s bytes.
    below: usize,
}

/// What stands at a path, links (within the tree) followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder(Identity),
    /// Anything else, in words (`a FIFO (named pipe)`, `a socket`).
    Other(&'static str),
}

/// What a folder's listing says one of its entries is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    File,
    Folder,
    /// A symbolic link, not followed.
    Link,
    /// Anything else: a FIFO, a socket, a device.
    Other,
}

impl Listed {
    fn of(kind: FileType) -> Listed {
        match kind {
            FileType::RegularFile => Listed::File,
            FileType::Directory => Listed::Folder,
            FileType::Symlink => Listed::Link,
            _ => Listed::Other,
        }
    }
}

/// A folder's device and inode: the same folder reached by two paths (a link loop) has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    device: u64,
    inode: u64,
}

impl TreePath {
    /// The name of an input made in memory (a generated case's `<stdin>`), for messages: it is
    /// no file, and opening it fails.
    pub fn in_memory(name: &str) -> TreePath {
        let tree = Tree(Arc::new(Root {
            fd: None,
            path: PathBuf::new(),
            scope: Scope::Fixtures,
        }));
        TreePath {
            tree,
            full: PathBuf::from(name),
            below: 0,
        }
    }

    /// The root's path joined with the relative one.
    pub fn path(&self) -> &Path {
        &self.full
    }

    /// The path below the root.
    pub fn relative(&self) -> &Path {
        Path::new(OsStr::from_bytes(
            &self.full.as_os_str().as_bytes()[self.below..],
        ))
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    pub fn file_name(&self) -> Option<&OsStr> {
        self.relative().file_name()
    }

    /// The file or folder `name` below this one.
    pub fn join(&self, name: impl AsRef<Path>) -> TreePath {
        self.tree.join(self.relative().join(name))
    }

    /// This path with `suffix` added to its last name: `data/1` and `.ans` make `data/1.ans`.
    pub fn with_suffix(&self, suffix: &str) -> TreePath {
        let mut relative = self.relative().as_os_str().to_owned();
        relative.push(suffix);
        self.tree.join(relative)
    }

    /// Opens it for reading; it must be a regular file.
    pub fn open(&self) -> Result<File, OpenError> {
        let (file, _) = self.open_file()?;
        // Whoever gets the file (a program's stdin, say) sees it as usual: the flag only kept
        // the open from waiting.
        rustix::fs::fcntl_setfl(&file, OFlags::empty())
            .map_err(|e| self.error(Why::Io(e.into())))?;
        Ok(file)
    }

    /// Its whole contents, read through one open. The open's `O_NONBLOCK` stays: reads of a
    /// regular file never wait anyway, and clearing it was one system call more per file.
    ///
    /// A file shorter than [`FIRST_READ`] (most case files) costs an open, one positioned read
    /// and a close, no `fstat`: the positioned read is the check of what was opened, as a FIFO,
    /// a socket or a terminal has no position to read at (`ESPIPE`) and a folder cannot be read
    /// (`EISDIR`), and a regular file's short read is its end. A longer file, and anything the
    /// read refused, is checked by `fstat` as [`TreePath::open`] does (which names what it is).
    /// What that leaves unchecked is a device node answering a first read with little (only root
    /// can make one): discovery refuses every case file that does not list as a regular file.
    pub fn read(&self) -> Result<Vec<u8>, OpenError> {
        let fd = self.descriptor(Want::File)?;
        // Not zeroed: the read fills what is kept (zeroing was a tenth of reading a tiny file).
        let mut first = [MaybeUninit::<u8>::uninit(); FIRST_READ];
        match rustix::io::pread(&fd, &mut first, 0) {
            Ok((read, _)) if read.len() < FIRST_READ => return Ok(read.to_vec()),
            // A long file is read whole below, from its start (a positioned read moved nothing).
            Ok(_) | Err(Errno::SPIPE | Errno::ISDIR) => {}
            Err(errno) => return Err(self.error(Why::Io(errno.into()))),
        }
        let (file, metadata) = self.checked_file(fd)?;
        read_whole(file, metadata.len()).map_err(|e| self.error(Why::Io(e)))
    }

    /// The open regular file (`O_NONBLOCK` still set), and what `fstat` said of it.
    fn open_file(&self) -> Result<(File, Metadata), OpenError> {
        self.checked_file(self.descriptor(Want::File)?)
    }

    /// `fd`, opened here, as a file once `fstat` says it is a regular one.
    fn checked_file(&self, fd: OwnedFd) -> Result<(File, Metadata), OpenError> {
        let (file, metadata) = self.stat(fd)?;
        if !metadata.is_file() {
            return Err(self.error(Why::NotFile(kind_of(&metadata))));
        }
        Ok((file, metadata))
    }

    /// What stands here, or `None` when nothing does (a link to nothing included).
    pub fn kind(&self) -> Result<Option<Kind>, OpenError> {
        Ok(self.metadata()?.map(|metadata| {
            if metadata.is_file() {
                Kind::File
            } else if metadata.is_dir() {
                Kind::Folder(Identity {
                    device: metadata.dev(),
                    inode: metadata.ino(),
                })
            } else {
                Kind::Other(kind_of(&metadata))
            }
        }))
    }

    /// Whether a regular file stands here (`false`: nothing does); anything else is an error.
    pub fn is_file(&self) -> Result<bool, OpenError> {
        match self.metadata()? {
            None => Ok(false),
            Some(metadata) if metadata.is_file() => Ok(true),
            Some(metadata) => Err(self.error(Why::NotFile(kind_of(&metadata)))),
        }
    }

    /// What stands here, looked at without opening it for reading; `None` when nothing does.
    fn metadata(&self) -> Result<Option<Metadata>, OpenError> {
        match self.opened(Want::Anything) {
            Ok((_, metadata)) => Ok(Some(metadata)),
            Err(error) if error.is_missing() => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The names in this folder (`.` and `..` left out), sorted by their bytes.
    pub fn list(&self) -> Result<Vec<OsString>, OpenError> {
        let mut names = vec![];
        self.for_each_entry(|name, _| names.push(OsString::from_vec(name.to_vec())))?;
        names.sort();
        Ok(names)
    }

    /// Calls `visit` with the name and kind of each entry of this folder (`.` and `..` left
    /// out, links not followed), in the order the file system lists them: no path and no
    /// allocation per entry, for folders of thousands of cases.
    pub fn for_each_entry(&self, mut visit: impl FnMut(&[u8], Listed)) -> Result<(), OpenError> {
        let (folder, metadata) = self.opened(Want::Folder)?;
        if !metadata.is_dir() {
            return Err(self.error(Why::NotFolder(kind_of(&metadata))));
        }
        each_entry(folder.as_fd(), |name, kind| visit(name, Listed::of(kind)))
            .map_err(|e| self.error(Why::Io(e.into())))
    }

    fn opened(&self, want: Want) -> Result<(File, Metadata), OpenError> {
        self.stat(self.descriptor(want)?)
    }

    /// A descriptor of what stands here, opened beneath the root for `want`, not yet checked.
    fn descriptor(&self, want: Want) -> Result<OwnedFd, OpenError> {
        let Some(root) = self.tree.fd() else {
            let made = io::Error::new(io::ErrorKind::Unsupported, "made in memory, not a file");
            return Err(self.error(Why::Io(made)));
        };
        open_beneath(root, self.relative(), want).map_err(|w| self.error(w))
    }

    /// `fd` as a file, with what `fstat` says of it.
    fn stat(&self, fd: OwnedFd) -> Result<(File, Metadata), OpenError> {
        let file = File::from(fd);
        let metadata = file.metadata().map_err(|e| self.error(Why::Io(e)))?;
        Ok((file, metadata))
    }

    fn error(&self, why: Why) -> OpenError {
        // The walk names a link below the root; messages name it in full. An absolute link is
        // refused wherever it leads, but one leading out is told as such.
        let why = match why {
            Why::LinkOutside { link, target } => Why::LinkOutside {
                link: self.tree.path().join(link),
                target,
            },
            Why::AbsoluteLink { link, target } if !target.starts_with(self.tree.path()) => {
                Why::LinkOutside {
                    link: self.tree.path().join(link),
                    target,
                }
            }
            Why::AbsoluteLink { link, target } => Why::AbsoluteLink {
                link: self.tree.path().join(link),
                target,
            },
            why => why,
        };
        OpenError {
            path: self.full.clone(),
            scope: self.tree.0.scope,
            why,
        }
    }
}

impl PartialEq for TreePath {
    fn eq(&self, other: &TreePath) -> bool {
        self.full == other.full
    }
}

impl Eq for TreePath {}

impl Hash for TreePath {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.full.hash(state);
    }
}

impl fmt::Debug for TreePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.full.fmt(f)
    }
}

/// Reads a whole open file of `size` bytes (as `fstat` said when it was opened), as
/// `std::fs::read` does but with one system call fewer: the file is read up to that size,
/// without a last `read` to see its end (`std::fs::read` makes one after every file, even one
/// whose size it knows). On suites of tiny cases, where
/// each case is two files, that read was a fifth of the judging workers' system calls. A file
/// that turns out shorter than that size is read to its end as usual (nothing is cut off); one
/// that grows while it is read is read as it was (a fixture changing while it is judged is read
/// either way by chance).
fn read_whole(mut file: File, size: u64) -> io::Result<Vec<u8>> {
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    if size == 0 {
        // Files whose size is not known in advance (`/proc`) say 0: read them to their end.
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        return Ok(bytes);
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(size)?;
    // `take` stops at the size without an extra read once it is reached; a short read (a file
    // that shrank) goes on until `read` returns 0.
    file.take(size as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
#[path = "beneath_tests.rs"]
mod tests;
