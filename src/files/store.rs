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

use std::fs;
use std::io;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::beneath::{Scope, Tree, TreePath};
use super::folder::{Entry, Folder, WriteError};

mod journal;
mod lock;

pub use journal::{on_recovery, Recovered};
use journal::{plain_relative, recover, tell, Staging, JOURNAL};
use lock::RootLock;

/// Takes the shared lock for a walk of `root`, after finishing any write that a killed writer
/// left (under the exclusive lock, for a moment). `None` when the root cannot be locked
/// (missing, which the walk reports, or on a filesystem without locks): the walk goes on without
/// the lock.
pub fn lock_for_reading(root: &Path) -> Option<RootLock> {
    let tree = Tree::open(root, Scope::Fixtures).ok()?;
    let folder = tree.folder().ok()?;
    if folder
        .entry(JOURNAL.as_ref())
        .is_ok_and(|journal| journal != Entry::Missing)
    {
        // A journal without a live writer: writers hold the exclusive lock while theirs exists.
        if let Ok(_exclusive) = RootLock::exclusive(&folder) {
            if let Err(error) = recover(&tree, &folder) {
                tell(&Recovered::Failed(error));
            }
        }
    }
    RootLock::shared(&folder).ok()
}

/// Whether `name` is a name like those of the temporary files that grundy's atomic writes
/// ([`Folder::write`], and every fixture write before this store) make beside their target:
/// `.grundy-` and six letters or digits. Every write into a fixtures root now goes through the
/// store, so under the root's lock one found there was left by a killed grundy.
pub fn is_stale_temporary(name: &[u8]) -> bool {
    name.strip_prefix(b".grundy-")
        .is_some_and(|rest| rest.len() == 6 && rest.iter().all(u8::is_ascii_alphanumeric))
}

/// What stands at a path, not following a final symbolic link: an early look, before the lock
/// is taken (a [`Writer`] looks again under it, through its descriptors).
pub fn entry(path: &Path) -> Result<Entry> {
    match path.symlink_metadata() {
        Ok(meta) if meta.is_file() => Ok(Entry::File),
        Ok(meta) => Ok(Entry::Other(super::kind_of(&meta))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Entry::Missing),
        Err(error) => Err(error).with_context(|| format!("cannot inspect `{}`", path.display())),
    }
}

/// An error unless nothing stands at `path`: grundy writes a new file only where there is none,
/// and never replaces a folder, a FIFO or a device.
pub fn require_free(path: &Path) -> Result<()> {
    free(path, entry(path)?)
}

/// An error unless `there`, what stands at `path`, is nothing.
fn free(path: &Path, there: Entry) -> Result<()> {
    match there {
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
/// out of the fixtures root) or something else than a folder: an early look, by path (a
/// [`Writer`] never follows a link anyway).
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
                super::kind_of(&meta)
            ),
            _ => {}
        }
    }
    Ok(())
}

/// A writer holding the exclusive lock of a fixtures root, after any interrupted write was
/// finished. Everything it writes is checked again under the lock, and written through the
/// root's descriptor, one folder at a time and never through a link: the root (or a folder
/// below it) swapped for a link meanwhile makes a write fail, never land where the link leads.
pub struct Writer {
    tree: Tree,
    /// The root's folder, where the journal is.
    root: Folder,
    _lock: RootLock,
}

impl Writer {
    /// Creates the root if needed, waits for its exclusive lock and finishes any write a killed
    /// writer left.
    pub fn open(root: &Path) -> Result<Writer> {
        fs::create_dir_all(root)
            .with_context(|| format!("cannot create the fixtures root `{}`", root.display()))?;
        let tree = Tree::open(root, Scope::Fixtures)
            .with_context(|| format!("cannot open the fixtures root `{}`", root.display()))?;
        Writer::locked(tree)
    }

    /// [`Writer::open`] for the folder `root` of a tree (a package's `data/`), made when missing
    /// and reached from the tree's root without following a link.
    pub fn open_beneath(root: &TreePath) -> Result<Writer> {
        Writer::locked(root.subtree(Scope::Fixtures)?)
    }

    fn locked(tree: Tree) -> Result<Writer> {
        let root = tree.folder()?;
        let lock = RootLock::exclusive(&root).with_context(|| {
            format!(
                "cannot lock the fixtures root `{}`; grundy writes fixtures only under its lock, \
                 so that concurrent writers cannot clobber each other",
                tree.path().display()
            )
        })?;
        recover(&tree, &root)?;
        Ok(Writer {
            tree,
            root,
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
            free(path, self.tree.join(relative).entry()?)?;
            relatives.push(relative);
        }
        // Every file checked before any folder is made.
        let mut targets = Vec::new();
        for relative in &relatives {
            let target = self.tree.join(relative);
            let (folder, name) = target.parent_folder(true)?.expect("made when missing");
            targets.push((folder, name.to_owned()));
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
        for (index, (folder, name)) in targets.iter().enumerate() {
            if let Err(error) = staging.publish(index, folder, name) {
                // Back to how it was: the files already moved return to the journal, and without
                // the plan the journal is rolled back (here, or by recovery after a crash).
                for (earlier, (folder, name)) in targets.iter().enumerate().take(index) {
                    let _ = staging.take_back(earlier, folder, name);
                }
                staging.uncommit();
                return Err(self.explain(error, files[index].0));
            }
        }
        for (folder, _) in &targets {
            folder.sync()?;
        }
        drop(staging); // the write is done: the journal goes
        Ok(())
    }

    /// Replaces the regular file at `path` (below the root) with `bytes`, keeping its
    /// permissions.
    pub fn replace(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        let target = self.tree.join(self.relative(path)?);
        let Some((folder, name)) = target.parent_folder(false)? else {
            bail!("`{}` is not there; nothing to replace", path.display());
        };
        let mode = folder.replaceable(name)?;
        let staging = Staging::begin(&self.root)?;
        staging
            .stage(0, bytes, Some(mode))
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        staging
            .replace(0, &folder, name)
            .map_err(|error| self.explain(error, path))?;
        folder.sync()?;
        drop(staging); // the write is done: the journal goes
        Ok(())
    }

    /// What stands at `path` (below the root), looked at under the lock through the root's
    /// descriptor.
    pub fn entry(&self, path: &Path) -> Result<Entry> {
        Ok(self.tree.join(self.relative(path)?).entry()?)
    }

    /// The first `limit` bytes of the regular file at `path` (below the root), read under the
    /// lock through the root's descriptor; `None` when it is missing.
    pub fn read(&self, path: &Path, limit: u64) -> Result<Option<Vec<u8>>> {
        let target = self.tree.join(self.relative(path)?);
        match target.parent_folder(false)? {
            Some((folder, name)) => Ok(folder.read(name, limit)?),
            None => Ok(None),
        }
    }

    fn relative<'a>(&self, path: &'a Path) -> Result<&'a Path> {
        path.strip_prefix(self.tree.path())
            .ok()
            .filter(|relative| plain_relative(relative))
            .with_context(|| {
                format!(
                    "`{}` is not below the fixtures root `{}`",
                    path.display(),
                    self.tree.path().display()
                )
            })
    }

    /// A failed move into place, in words.
    fn explain(&self, error: WriteError, path: &Path) -> anyhow::Error {
        if error.already_exists() {
            anyhow::anyhow!(
                "`{}` appeared while it was being written; refusing to overwrite it",
                path.display()
            )
        } else if error.crosses_devices() {
            anyhow::anyhow!(
                "cannot write `{}`: its folder is on another filesystem than the fixtures root \
                 `{}`, where grundy stages what it writes",
                path.display(),
                self.tree.path().display()
            )
        } else {
            error.into()
        }
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
