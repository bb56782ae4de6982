//! What a caller asks for: the program, its limits, what goes to its stdin and where its
//! stdout goes, extra environment, files placed in its working folder and files read back,
//! and a cancel token.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Limits for one run. A `memory_bytes` of 0 means no memory limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The CPU time of every process of the run together: the limit that decides
    /// [`End::TimeLimit`](crate::End::TimeLimit) for a program that computes.
    pub time: Duration,
    /// The wall clock from the start: a backstop that stops a program that sleeps or blocks.
    /// At least `time` (a smaller one is raised to it); [`Limits::wall_for`] gives the usual one.
    pub wall: Duration,
    pub memory_bytes: u64,
    pub output_bytes: u64,
}

impl Limits {
    /// The wall-clock backstop for a CPU time limit of `time`: twice it plus one second, so a
    /// program that computes is never stopped by the wall clock on a machine that gives it
    /// half a core, while one that waits forever is stopped soon.
    pub fn wall_for(time: Duration) -> Duration {
        time.saturating_mul(2)
            .saturating_add(Duration::from_secs(1))
    }

    /// The wall clock actually held: never below the CPU limit.
    pub(crate) fn wall_clock(&self) -> Duration {
        self.wall.max(self.time)
    }
}

/// The command to run: `argv[0]` is looked up in the box's PATH unless it contains a `/`, in
/// which case it is a path relative to the caller's working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub argv: Vec<OsString>,
    /// Host files or folders of the program's own that it needs besides those its command line
    /// names (the folder of a built program, say), shown read-only at their own paths in a box.
    /// Without a mount namespace the program reaches host files as far as its user may anyway.
    pub show: Vec<PathBuf>,
    /// Host folders the program must never see, whatever its command line names (the answers
    /// of the cases it is judged on): a folder it is shown that holds one shows it empty, and a
    /// path it is shown that is one or lies in one is refused ([`crate::HiddenError`]).
    pub hide: Vec<PathBuf>,
    /// The program reserves far more address space than it touches (the JVM sizes its heap,
    /// class space and code cache up front): where a cgroup limits the run's memory, that limit
    /// alone holds it and its address space is not limited; elsewhere RLIMIT_AS stays.
    pub reserves_address_space: bool,
    /// A host folder whose regular files and folders the working folder starts with, as
    /// writable copies (links and special files left out, nothing followed): a program that
    /// reads its own files by relative names (a shell script sourcing `./lib.sh`) finds them
    /// there, as judges run a program in a copy of its folder.
    pub workdir_from: Option<PathBuf>,
    /// The program may read its working folder but not change it (no file made, written,
    /// renamed or removed there): in a box a read-only bind of the folder in a mount namespace
    /// of the program's own, in a plain run its Landlock rules; without either it stays
    /// writable. `/tmp` stays writable.
    pub read_only_workdir: bool,
}

impl Program {
    /// The command `argv`, showing nothing more than what it names.
    pub fn new(argv: impl IntoIterator<Item = impl Into<OsString>>) -> Program {
        Program {
            argv: argv.into_iter().map(Into::into).collect(),
            show: Vec::new(),
            hide: Vec::new(),
            reserves_address_space: false,
            workdir_from: None,
            read_only_workdir: false,
        }
    }
}

/// What the program reads on stdin. The sandbox never hands it a file of the host: a file or
/// bytes are streamed through a pipe (a program that never reads blocks nothing).
#[derive(Debug)]
pub enum Stdin {
    /// The contents of a file the caller opened (so what it checked is what is read), from its
    /// current position.
    File(File),
    Bytes(Vec<u8>),
    /// A descriptor the caller made (e.g. a pipe from an interactor), given as is.
    Fd(OwnedFd),
    /// /dev/null.
    Null,
}

/// Where the program's stdout goes.
#[derive(Debug)]
pub enum Stdout {
    /// Kept in `Outcome::stdout`, up to the output limit (more ends the run: OutputLimit).
    Capture,
    /// A descriptor the caller made and reads itself (e.g. a pipe to an interactor); the
    /// output limit is then the caller's job.
    Fd(OwnedFd),
}

/// A file placed in the working folder before the program starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxFile {
    /// Relative to the working folder; folders on the way are created.
    pub name: PathBuf,
    pub kind: BoxFileKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoxFileKind {
    /// A read-only file with these bytes.
    Bytes(Vec<u8>),
    /// A read-only copy of a file the caller opened (executable when the original is).
    Copy(SharedFile),
    /// An empty folder the program may write in.
    WritableDir,
    /// A folder the program may write in, holding a copy of a host folder's regular files and
    /// folders (links and special files are left out, nothing is followed), all of it the
    /// program's to change: what a run left, given to the next one (with `Spec::export`).
    WritableCopy(PathBuf),
}

impl BoxFile {
    pub fn bytes(name: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) -> BoxFile {
        BoxFile {
            name: name.into(),
            kind: BoxFileKind::Bytes(bytes.into()),
        }
    }

    pub fn copy(name: impl Into<PathBuf>, source: SharedFile) -> BoxFile {
        BoxFile {
            name: name.into(),
            kind: BoxFileKind::Copy(source),
        }
    }

    pub fn writable_dir(name: impl Into<PathBuf>) -> BoxFile {
        BoxFile {
            name: name.into(),
            kind: BoxFileKind::WritableDir,
        }
    }

    pub fn writable_copy(name: impl Into<PathBuf>, source: impl Into<PathBuf>) -> BoxFile {
        BoxFile {
            name: name.into(),
            kind: BoxFileKind::WritableCopy(source.into()),
        }
    }
}

/// An open file that several runs may copy at once: it is read by position (pread), never
/// through its shared offset. The caller opens it, so a file that was checked (inside a
/// package, a regular file) is the file that is copied, whatever its path names later.
#[derive(Clone, Debug)]
pub struct SharedFile(Arc<File>);

impl SharedFile {
    pub fn new(file: File) -> SharedFile {
        SharedFile(Arc::new(file))
    }

    /// Opens a file the caller trusts by path (one it made itself).
    pub fn open(path: impl AsRef<Path>) -> std::io::Result<SharedFile> {
        File::open(path).map(SharedFile::new)
    }

    pub fn file(&self) -> &File {
        &self.0
    }
}

impl From<File> for SharedFile {
    fn from(file: File) -> SharedFile {
        SharedFile::new(file)
    }
}

/// The same open file (not merely the same contents).
impl PartialEq for SharedFile {
    fn eq(&self, other: &SharedFile) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedFile {}

/// A token that ends a run at once from another thread (`End::Cancelled`). Clones share it.
#[derive(Clone, Debug)]
pub struct Cancel(Arc<CancelInner>);

#[derive(Debug)]
struct CancelInner {
    cancelled: AtomicBool,
    /// An eventfd that wakes the run's poll loop; None if one could not be made (the loop
    /// then checks the flag every few milliseconds).
    wake: Option<OwnedFd>,
}

impl Cancel {
    pub fn new() -> Cancel {
        // SAFETY: eventfd creates a new descriptor (or fails).
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        Cancel(Arc::new(CancelInner {
            cancelled: AtomicBool::new(false),
            // SAFETY: a new descriptor owned by nobody else.
            wake: (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) }),
        }))
    }

    /// Ends the run using this token (now, or as soon as it starts).
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        if let Some(fd) = &self.0.wake {
            let one = 1u64.to_ne_bytes();
            // SAFETY: an 8-byte write to our eventfd.
            unsafe { libc::write(fd.as_raw_fd(), one.as_ptr().cast(), 8) };
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    pub(crate) fn wake_fd(&self) -> Option<i32> {
        self.0.wake.as_ref().map(|fd| fd.as_raw_fd())
    }
}

impl Default for Cancel {
    fn default() -> Cancel {
        Cancel::new()
    }
}

/// One run: what to run, under which limits, with what around it.
#[derive(Debug)]
pub struct Spec<'a> {
    pub program: &'a Program,
    pub stdin: Stdin,
    pub stdout: Stdout,
    pub limits: &'a Limits,
    /// Extra environment variables, over the sandbox's PATH, HOME and LANG.
    pub env: &'a [(OsString, OsString)],
    pub files: Vec<BoxFile>,
    /// Files (relative to the working folder) read back after the run, each up to 64 KiB,
    /// into `Outcome::collected`.
    pub collect: Vec<PathBuf>,
    /// After a run that finished: working-folder files or folders (relative) copied out to
    /// host paths, regular files and folders only, never following a link, at most the output
    /// limit in all (e.g. what a compiler built). The host paths written are in
    /// `Outcome::exported`.
    pub export: Vec<(PathBuf, PathBuf)>,
    pub cancel: Option<Cancel>,
}

impl<'a> Spec<'a> {
    /// `program` under `limits`, with /dev/null as stdin and stdout captured.
    pub fn new(program: &'a Program, limits: &'a Limits) -> Spec<'a> {
        Spec {
            program,
            stdin: Stdin::Null,
            stdout: Stdout::Capture,
            limits,
            env: &[],
            files: Vec::new(),
            collect: Vec::new(),
            export: Vec::new(),
            cancel: None,
        }
    }

    pub fn stdin(mut self, stdin: Stdin) -> Spec<'a> {
        self.stdin = stdin;
        self
    }

    pub(crate) fn argv0(&self) -> &OsStr {
        self.program
            .argv
            .first()
            .map(OsString::as_os_str)
            .unwrap_or_default()
    }
}
