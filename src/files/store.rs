//! The fixture store: every write into a fixtures root (`add`, `gen`, `check --bless`,
//! `stress --save`) goes through here, so the files of a case appear whole or not at all, even
//! when grundy is killed with SIGKILL or the machine stops, and concurrent writers never clobber
//! or lose a case.
//!
//! - **The lock is the fixtures root folder itself** (`flock` on the open folder): no lock file
//!   to create, ignore or commit, and it works on a read-only root. A writer holds it exclusively
//!   from checking that its names are free until its files are in place; readers (discovery, for
//!   `check`, `list` and `validate`) hold it shared while they walk, so they never see half a
//!   case. Where a folder cannot be locked exclusively (NFS), the first writer makes a hidden
//!   lock file, `<root>/.grundy-lock`, which everyone locks instead from then on. A root that
//!   cannot be locked at all is read without the lock and never written.
//! - **A journal folder, `<root>/.grundy-journal/`, exists only while a write is under way.** The
//!   writer stages its files there (`0`, `1`, ... in order, each fsync'd) and, when there are
//!   several (input, expected output, `.gen` recipe), commits by renaming a `plan` into place
//!   that lists their final paths. Only then is each staged file renamed to its final path,
//!   never over an existing one (`renameat2(RENAME_NOREPLACE)`, or a hard link where that is not
//!   supported), the input first, so a case cut short is at worst an input without expected
//!   output (NOEXP), never an expected file without input (a layout error). Last the journal
//!   folder is removed. A single file needs no plan: its rename is the commit.
//! - **Recovery.** Whoever takes the lock and finds a journal finishes what a killed writer
//!   left: with a plan, the staged files still there are moved into place (rolled forward);
//!   without one, they are deleted (rolled back). A live writer holds the lock for as long as its
//!   journal exists, so recovery never touches a live writer's work.
//! - **Durability.** Staged files, the plan and the folders holding them are fsync'd before
//!   anything is renamed into place, and the case folders after, so a machine crash is covered
//!   as well as SIGKILL.
//!
//! Why one journal folder rather than hidden temporary files beside each target: recovery reads
//! one folder instead of walking the whole tree, and a finished write leaves nothing behind. The
//! price is that a case folder on another filesystem than the root (a mount inside it) cannot
//! be written, which is refused with a message.

use std::fs::{self, FileType};
use std::io;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};

mod journal;
mod lock;

use journal::{create_folders, move_new, recover, sync_folder, Staging, JOURNAL};
use lock::RootLock;

/// Takes the shared lock for a walk of `root`, after finishing any write that a killed writer
/// left (under the exclusive lock, for a moment). `None` when the root cannot be locked
/// (missing, which the walk reports, or on a filesystem without locks): the walk goes on without
/// the lock.
pub fn lock_for_reading(root: &Path) -> Option<RootLock> {
    if root.join(JOURNAL).symlink_metadata().is_ok() {
        // A journal without a live writer: writers hold the exclusive lock while theirs exists.
        if let Ok(_exclusive) = RootLock::exclusive(root) {
            if let Err(error) = recover(root) {
                eprintln!("warning: {error:#}");
            }
        }
    }
    RootLock::shared(root).ok()
}

/// Whether `name` is a name like those of the temporary files that grundy's plain atomic writes
/// ([`super::write_atomic`], and every fixture write before this store) make beside their
/// target: `.grundy-` and six letters or digits. Every write into a fixtures root now goes through
/// the store, so under the root's lock one found there was left by a killed grundy.
pub fn is_stale_temporary(name: &[u8]) -> bool {
    name.strip_prefix(b".grundy-")
        .is_some_and(|rest| rest.len() == 6 && rest.iter().all(u8::is_ascii_alphanumeric))
}

/// What stands at a path, not following a final symbolic link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Missing,
    File,
    /// Anything but a regular file, in words: `a directory`, `a FIFO (named pipe)`, ...
    Other(&'static str),
}

pub fn entry(path: &Path) -> Result<Entry> {
    match path.symlink_metadata() {
        Ok(meta) if meta.is_file() => Ok(Entry::File),
        Ok(meta) => Ok(Entry::Other(kind(meta.file_type()))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Entry::Missing),
        Err(error) => Err(error).with_context(|| format!("cannot inspect `{}`", path.display())),
    }
}

/// A file type in words, for errors: `a directory`, `a FIFO (named pipe)`, ...
pub fn kind(file_type: FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_file() {
        "a regular file"
    } else if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_fifo() {
        "a FIFO (named pipe)"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

/// An error unless nothing stands at `path`: grundy writes a new file only where there is none,
/// and never replaces a folder, a FIFO or a device.
pub fn require_free(path: &Path) -> Result<()> {
    match entry(path)? {
        Entry::Missing => Ok(()),
        Entry::File => bail!(
            "`{}` already exists; refusing to overwrite it (pick another case name)",
            path.display()
        ),
        Entry::Other(kind) => bail!(
            "`{}` already exists and is {kind}, not a regular file; grundy never replaces it: \
             remove it, or pick another case name",
            path.display()
        ),
    }
}

/// An error if a folder on the way from `root` to `relative` is a symbolic link (which may lead
/// out of the fixtures root) or something else than a folder.
pub fn require_plain_path(root: &Path, relative: &Path) -> Result<()> {
    let mut below = root.to_path_buf();
    let mut parts = relative.components().peekable();
    while let Some(part) = parts.next() {
        below.push(part);
        let last = parts.peek().is_none();
        match below.symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => bail!(
                "`{}` is a symbolic link; grundy does not write through links, which may lead \
                 out of the fixtures root",
                below.display()
            ),
            Ok(meta) if !last && !meta.is_dir() => bail!(
                "`{}` is {}, so no case can be written below it",
                below.display(),
                kind(meta.file_type())
            ),
            _ => {}
        }
    }
    Ok(())
}

/// A writer holding the exclusive lock of a fixtures root, after any interrupted write was
/// finished. Everything it writes is checked again under the lock.
pub struct Writer {
    root: PathBuf,
    _lock: RootLock,
}

impl Writer {
    /// Creates the root if needed, waits for its exclusive lock and finishes any write a killed
    /// writer left.
    pub fn open(root: &Path) -> Result<Writer> {
        fs::create_dir_all(root)
            .with_context(|| format!("cannot create the fixtures root `{}`", root.display()))?;
        let lock = RootLock::exclusive(root).with_context(|| {
            format!(
                "cannot lock the fixtures root `{}`; grundy writes fixtures only under its lock, \
                 so that concurrent writers cannot clobber each other",
                root.display()
            )
        })?;
        recover(root)?;
        Ok(Writer {
            root: root.to_path_buf(),
            _lock: lock,
        })
    }

    /// Writes new files (paths below the root, normally the input first) as one publication:
    /// all of them or, if anything fails or the process dies before the commit, none. Nothing
    /// may stand at any of the paths.
    pub fn create(&self, files: &[(&Path, &[u8])]) -> Result<()> {
        let mut relatives = Vec::new();
        for (path, _) in files {
            let relative = self.relative(path)?;
            require_plain_path(&self.root, relative)?;
            require_free(path)?;
            relatives.push(relative);
        }
        let mut folders: Vec<&Path> = files.iter().filter_map(|(p, _)| p.parent()).collect();
        folders.dedup();
        for folder in &folders {
            create_folders(&self.root, folder)?;
        }
        let staging = Staging::begin(&self.root)?;
        for (index, (path, bytes)) in files.iter().enumerate() {
            staging
                .stage(index, bytes, None)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
        }
        if files.len() > 1 {
            staging.commit(&relatives)?;
        }
        for (index, (path, _)) in files.iter().enumerate() {
            if let Err(error) = move_new(&staging.file(index), path) {
                // Back to how it was: the files already moved return to the journal, and without
                // the plan the journal is rolled back (here, or by recovery after a crash).
                for (earlier, (published, _)) in files.iter().enumerate().take(index) {
                    let _ = fs::rename(published, staging.file(earlier));
                }
                staging.uncommit();
                return Err(self.explain(error, path));
            }
        }
        for folder in &folders {
            sync_folder(folder)?;
        }
        drop(staging); // the write is done: the journal goes
        Ok(())
    }

    /// Replaces the regular file at `path` (below the root) with `bytes`, keeping its
    /// permissions.
    pub fn replace(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        require_plain_path(&self.root, self.relative(path)?)?;
        let meta = path
            .symlink_metadata()
            .with_context(|| format!("cannot inspect `{}`", path.display()))?;
        if !meta.is_file() {
            bail!(
                "`{}` is {}, not a regular file; grundy never replaces it",
                path.display(),
                kind(meta.file_type())
            );
        }
        let staging = Staging::begin(&self.root)?;
        staging
            .stage(0, bytes, Some(meta.permissions()))
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        fs::rename(staging.file(0), path).map_err(|error| self.explain(error, path))?;
        sync_folder(path.parent().unwrap_or(&self.root))?;
        drop(staging); // the write is done: the journal goes
        Ok(())
    }

    fn relative<'a>(&self, path: &'a Path) -> Result<&'a Path> {
        path.strip_prefix(&self.root)
            .ok()
            .filter(|relative| plain_relative(relative))
            .with_context(|| {
                format!(
                    "`{}` is not below the fixtures root `{}`",
                    path.display(),
                    self.root.display()
                )
            })
    }

    /// A failed move into place, in words.
    fn explain(&self, error: io::Error, path: &Path) -> anyhow::Error {
        let what = if error.kind() == io::ErrorKind::AlreadyExists {
            format!(
                "`{}` appeared while it was being written; refusing to overwrite it",
                path.display()
            )
        } else if error.kind() == io::ErrorKind::CrossesDevices {
            format!(
                "cannot write `{}`: its folder is on another filesystem than the fixtures root \
                 `{}`, where grundy stages what it writes",
                path.display(),
                self.root.display()
            )
        } else {
            format!("cannot write `{}`: {error}", path.display())
        };
        anyhow::anyhow!(what)
    }
}

/// Relative, with nothing but plain names (no `..`, no root): stays below where it is joined.
fn plain_relative(path: &Path) -> bool {
    path.components().next().is_some()
        && path.components().all(|c| matches!(c, Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::journal::{PLAN, PLAN_PARTIAL};
    use super::lock::LOCK_FILE;
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = walkdir::WalkDir::new(dir)
            .min_depth(1)
            .into_iter()
            .map(|e| {
                let e = e.unwrap();
                e.path().strip_prefix(dir).unwrap().display().to_string()
            })
            .collect();
        names.sort();
        names
    }

    /// A journal as a writer killed at some point would leave it: staged files by number, and
    /// the plan if it had committed.
    fn interrupted(root: &Path, staged: &[(usize, &str)], plan: Option<&[&str]>) {
        let journal = root.join(JOURNAL);
        fs::create_dir_all(&journal).unwrap();
        for (index, contents) in staged {
            fs::write(journal.join(index.to_string()), contents).unwrap();
        }
        if let Some(plan) = plan {
            fs::write(journal.join(PLAN), serde_json::to_vec(plan).unwrap()).unwrap();
        }
    }

    #[test]
    fn creates_every_file_and_leaves_no_journal() {
        let root = tempfile::tempdir().unwrap();
        let input = root.path().join("nim/group/a.in");
        let output = root.path().join("nim/group/a.out");
        let writer = Writer::open(root.path()).unwrap();
        writer
            .create(&[(&input, b"1\n"), (&output, b"win\n")])
            .unwrap();
        assert_eq!(fs::read(&output).unwrap(), b"win\n");
        assert_eq!(
            listing(root.path()),
            ["nim", "nim/group", "nim/group/a.in", "nim/group/a.out"]
        );

        let err = writer
            .create(&[
                (&root.path().join("nim/group/b.in"), b"2\n"),
                (&output, b"x\n"),
            ])
            .unwrap_err();
        assert!(format!("{err:#}").contains("already exists"), "{err:#}");
        assert!(
            !root.path().join("nim/group/b.in").exists(),
            "all or nothing"
        );
        writer.replace(&output, b"lose\n").unwrap();
        assert_eq!(fs::read(&output).unwrap(), b"lose\n");
        assert!(!root.path().join(JOURNAL).exists());
    }

    #[test]
    fn a_committed_write_is_rolled_forward_and_an_uncommitted_one_back() {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("nim")).unwrap();
        // Killed after the commit, with the input already in place.
        fs::write(root.path().join("nim/a.in"), "1\n").unwrap();
        interrupted(
            root.path(),
            &[(1, "win\n"), (2, "recipe\n")],
            Some(&["nim/a.in", "nim/a.out", "nim/a.gen"]),
        );
        drop(lock_for_reading(root.path()));
        assert_eq!(
            listing(root.path()),
            ["nim", "nim/a.gen", "nim/a.in", "nim/a.out"]
        );
        assert_eq!(fs::read(root.path().join("nim/a.out")).unwrap(), b"win\n");

        // Killed before the commit: staged files, one cut short, and a partial plan.
        interrupted(root.path(), &[(0, "2\n"), (1, "wi")], None);
        fs::write(
            root.path().join(JOURNAL).join(PLAN_PARTIAL),
            "[\"nim/b.in\"",
        )
        .unwrap();
        drop(Writer::open(root.path()).unwrap());
        assert_eq!(
            listing(root.path()),
            ["nim", "nim/a.gen", "nim/a.in", "nim/a.out"]
        );
    }

    #[test]
    fn recovery_makes_a_case_folder_that_did_not_survive() {
        let root = tempfile::tempdir().unwrap();
        interrupted(
            root.path(),
            &[(0, "1\n"), (1, "win\n")],
            Some(&["nim/new/group/a.in", "nim/new/group/a.out"]),
        );
        drop(Writer::open(root.path()).unwrap());
        assert_eq!(
            listing(root.path()),
            [
                "nim",
                "nim/new",
                "nim/new/group",
                "nim/new/group/a.in",
                "nim/new/group/a.out"
            ]
        );
    }

    #[test]
    fn recovery_never_replaces_and_ignores_a_plan_leading_out_of_the_root() {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("nim")).unwrap();
        fs::write(root.path().join("nim/a.out"), "mine\n").unwrap();
        interrupted(
            root.path(),
            &[(0, "1\n"), (1, "win\n")],
            Some(&["nim/a.in", "nim/a.out"]),
        );
        drop(lock_for_reading(root.path()));
        assert_eq!(fs::read(root.path().join("nim/a.out")).unwrap(), b"mine\n");
        assert_eq!(fs::read(root.path().join("nim/a.in")).unwrap(), b"1\n");
        assert!(!root.path().join(JOURNAL).exists());

        interrupted(root.path(), &[(0, "x")], Some(&["../escaped"]));
        drop(lock_for_reading(root.path()));
        assert!(!root.path().parent().unwrap().join("escaped").exists());
        assert!(!root.path().join(JOURNAL).exists());
    }

    #[test]
    fn a_lock_file_once_made_is_the_lock() {
        use rustix::fs::{flock, FlockOperation::NonBlockingLockExclusive};
        use rustix::io::Errno;
        use std::fs::File;
        let root = tempfile::tempdir().unwrap();
        let writer = Writer::open(root.path()).unwrap();
        let folder = File::open(root.path()).unwrap();
        assert_eq!(
            flock(&folder, NonBlockingLockExclusive),
            Err(Errno::WOULDBLOCK)
        );
        drop(writer);
        assert_eq!(flock(&folder, NonBlockingLockExclusive), Ok(()));
        drop(folder);

        // As on NFS, where the first writer made it.
        let lock_file = root.path().join(LOCK_FILE);
        fs::write(&lock_file, "").unwrap();
        let reader = lock_for_reading(root.path()).unwrap();
        let file = File::open(&lock_file).unwrap();
        assert_eq!(
            flock(&file, NonBlockingLockExclusive),
            Err(Errno::WOULDBLOCK)
        );
        drop(reader);
        let writer = Writer::open(root.path()).unwrap();
        assert_eq!(
            flock(&file, NonBlockingLockExclusive),
            Err(Errno::WOULDBLOCK)
        );
        drop(writer);
        assert_eq!(flock(&file, NonBlockingLockExclusive), Ok(()));
    }

    #[test]
    fn non_regular_files_are_never_replaced() {
        let root = tempfile::tempdir().unwrap();
        let fifo = root.path().join("nim/a.out");
        fs::create_dir_all(fifo.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let writer = Writer::open(root.path()).unwrap();
        let err = writer.replace(&fifo, b"x").unwrap_err();
        assert!(format!("{err:#}").contains("FIFO"), "{err:#}");
        let err = writer
            .create(&[(&root.path().join("nim/a.in"), b"1\n"), (&fifo, b"x")])
            .unwrap_err();
        assert!(format!("{err:#}").contains("FIFO"), "{err:#}");
        assert!(!root.path().join("nim/a.in").exists());
        let err = require_plain_path(root.path(), Path::new("nim/a.out/b.in")).unwrap_err();
        assert!(format!("{err:#}").contains("FIFO"), "{err:#}");
    }
}
