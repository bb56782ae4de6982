//! The journal of a fixtures root's writes (see [`super`] for the protocol): staging files,
//! committing a write of several by its plan, moving staged files into place without replacing
//! anything, durably, and recovering what a killed writer left: rolled forward when committed,
//! back when not. Every step goes through the descriptors of the root, the journal and the
//! folders written into ([`Folder`]), never through a link. What recovery did that a person
//! should know of is a [`Recovered`], handed to whoever [`on_recovery`] named: the store prints
//! nothing.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Context, Result};
use rustix::fs::Mode;

use crate::files::beneath::Tree;
use crate::files::folder::{Entry, Folder, WriteError};

/// The folder below a fixtures root where a write stages its files; hidden, so discovery never
/// takes it for a problem.
pub(super) const JOURNAL: &str = ".grundy-journal";
/// The committed list of final paths (relative to the root) of a write of several files.
pub(super) const PLAN: &str = "plan";
pub(super) const PLAN_PARTIAL: &str = "plan.partial";
/// The longest plan grundy reads back: a few paths; anything longer is not one it wrote.
const PLAN_BYTES: u64 = 1 << 20;

/// What finishing a killed writer's write did that the person at the terminal should know of.
#[derive(Debug)]
pub enum Recovered {
    /// A file of a committed write moved into place.
    Finished(PathBuf),
    /// A file of a committed write that could not be: its case may lack it.
    Unfinished { path: PathBuf, reason: String },
    /// The recovery before a walk failed; the walk goes on.
    Failed(anyhow::Error),
}

impl Recovered {
    /// Whether it is a warning (something may be missing), not a note.
    pub fn is_warning(&self) -> bool {
        !matches!(self, Recovered::Finished(_))
    }
}

impl fmt::Display for Recovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recovered::Finished(path) => write!(
                f,
                "finished writing `{}`, which an interrupted grundy left half done",
                path.display()
            ),
            Recovered::Unfinished { path, reason } => write!(
                f,
                "could not finish writing `{}`, which an interrupted grundy left half done \
                 ({reason}); its case may lack that file",
                path.display()
            ),
            Recovered::Failed(error) => write!(f, "{error:#}"),
        }
    }
}

/// Who is told what recovery did: set once, by the command layer, to the reporting layer's
/// notes (which the store, below it, cannot name). Unset, as in unit tests, nobody is.
static TOLD: OnceLock<fn(&Recovered)> = OnceLock::new();

/// Names who is told what recovery did, for the rest of the process (the first call only).
pub fn on_recovery(tell: fn(&Recovered)) {
    let _ = TOLD.set(tell);
}

/// Tells `recovered` to whoever [`on_recovery`] named.
pub(super) fn tell(recovered: &Recovered) {
    if let Some(tell) = TOLD.get() {
        tell(recovered);
    }
}

/// The journal of the write under way; removed when dropped, so a write that fails before its
/// commit leaves nothing behind.
pub(super) struct Staging<'a> {
    root: &'a Folder,
    folder: Folder,
}

impl<'a> Staging<'a> {
    pub(super) fn begin(root: &'a Folder) -> Result<Staging<'a>> {
        let folder = root.create_folder(JOURNAL.as_ref()).with_context(|| {
            format!(
                "cannot write into the fixtures root `{}`: cannot create `{}`, where grundy \
                 stages what it writes",
                root.path().display(),
                root.join(JOURNAL.as_ref()).display()
            )
        })?;
        Ok(Staging { root, folder })
    }

    /// Writes one staged file and flushes it to the disk. New files get the usual permissions
    /// (0666 less the umask); a replaced file's are given.
    pub(super) fn stage(
        &self,
        index: usize,
        bytes: &[u8],
        mode: Option<Mode>,
    ) -> Result<(), WriteError> {
        self.folder.create_new(&staged(index), bytes, mode)
    }

    /// Makes the staged files durable, then commits: from here on recovery rolls forward. (A
    /// write of one file never commits: its rename is the commit, so nothing in the journal
    /// needs to survive a crash.)
    pub(super) fn commit(&self, finals: &[&Path]) -> Result<()> {
        let finals: Vec<&str> = finals
            .iter()
            .map(|p| p.to_str())
            .collect::<Option<_>>()
            .context("grundy writes only UTF-8 paths into a fixtures root")?;
        let plan = serde_json::to_vec(&finals).expect("strings serialize");
        let (partial, done) = (OsStr::new(PLAN_PARTIAL), OsStr::new(PLAN));
        self.folder.create_new(partial, &plan, None)?;
        self.folder.rename(partial, &self.folder, done)?;
        self.folder.sync()?;
        self.root.sync()?;
        Ok(())
    }

    /// Moves staged file `index` to `name` in `folder`, which must be free.
    pub(super) fn publish(
        &self,
        index: usize,
        folder: &Folder,
        name: &OsStr,
    ) -> Result<(), WriteError> {
        self.folder.move_new(&staged(index), folder, name)
    }

    /// Moves staged file `index` over the file `name` in `folder`.
    pub(super) fn replace(
        &self,
        index: usize,
        folder: &Folder,
        name: &OsStr,
    ) -> Result<(), WriteError> {
        self.folder.rename(&staged(index), folder, name)
    }

    /// Moves the file `name` of `folder`, published from staged file `index`, back.
    pub(super) fn take_back(
        &self,
        index: usize,
        folder: &Folder,
        name: &OsStr,
    ) -> Result<(), WriteError> {
        folder.rename(name, &self.folder, &staged(index))
    }

    /// Withdraws the commit of a write that failed while moving its files into place (they are
    /// back in the journal): without its plan the journal is rolled back, here or by recovery.
    pub(super) fn uncommit(&self) {
        let _ = self.folder.remove(OsStr::new(PLAN));
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        let _ = remove(self.root, &self.folder);
    }
}

/// The name of staged file `index`.
fn staged(index: usize) -> OsString {
    OsString::from(index.to_string())
}

/// Removes the journal `journal` of `root`: its files, then itself. Only grundy writes in it, and
/// only files; anything else found there is left, and the journal with it (an error).
fn remove(root: &Folder, journal: &Folder) -> Result<(), WriteError> {
    let mut names = vec![];
    journal.for_each_entry(|name, _| names.push(name.to_owned()))?;
    for name in names {
        journal.remove_file(&name)?;
    }
    root.remove_folder(JOURNAL.as_ref())
}

/// Finishes the write that a killed writer left in the journal of `tree` (whose root folder is
/// `root`), if any; the caller holds the exclusive lock. Staged files of a committed write are
/// moved into place, any others deleted.
pub(super) fn recover(tree: &Tree, root: &Folder) -> Result<()> {
    let journal = match root.open_folder(JOURNAL.as_ref()) {
        Ok(Some(journal)) => journal,
        Ok(None) => return Ok(()),
        // Not a folder (a file, or a link, never followed): nothing of grundy's is in it.
        Err(error) if error.is_not_folder() => {
            return root.remove(JOURNAL.as_ref()).with_context(|| {
                format!(
                    "`{}` is in the way of grundy's journal of unfinished writes; remove it",
                    root.join(JOURNAL.as_ref()).display()
                )
            })
        }
        Err(error) => return Err(error.into()),
    };
    if let Some(finals) = read_plan(&journal) {
        let mut folders = Vec::new();
        for (index, relative) in finals.iter().enumerate() {
            if journal.entry(&staged(index))? != Entry::File {
                continue; // moved into place before the interruption
            }
            let target = tree.join(relative);
            // A folder made for the case may not have reached the disk before a crash.
            let moved = target.parent_folder(true).and_then(|folder| {
                let (folder, name) = folder.expect("made when missing");
                match journal.move_new(&staged(index), &folder, name) {
                    // A hard link made, the removal of the staged name interrupted.
                    Err(_) if journal.same_file(&staged(index), &folder, name) => Ok(None),
                    moved => moved.map(|()| Some(folder)),
                }
            });
            match moved {
                Ok(None) => {}
                Ok(Some(folder)) => {
                    tell(&Recovered::Finished(target.path().to_path_buf()));
                    folders.push(folder);
                }
                Err(error) => tell(&Recovered::Unfinished {
                    path: target.path().to_path_buf(),
                    reason: error.reason(),
                }),
            }
        }
        for folder in folders {
            folder.sync()?;
        }
    }
    remove(root, &journal).with_context(|| {
        format!(
            "cannot remove `{}`, left by an interrupted grundy; remove it by hand",
            journal.path().display()
        )
    })
}

/// The committed plan: final paths, relative to the root, of staged files `0`, `1`, ... `None`
/// when there is none (nothing was committed) or it is not one grundy wrote.
fn read_plan(journal: &Folder) -> Option<Vec<PathBuf>> {
    let text = journal.read(OsStr::new(PLAN), PLAN_BYTES + 1).ok()??;
    if text.len() as u64 > PLAN_BYTES {
        return None;
    }
    let finals: Vec<PathBuf> = serde_json::from_slice::<Vec<String>>(&text)
        .ok()?
        .into_iter()
        .map(PathBuf::from)
        .collect();
    finals.iter().all(|p| plain_relative(p)).then_some(finals)
}

/// Relative, with nothing but plain names (no `..`, no root): stays below where it is joined.
pub(super) fn plain_relative(path: &Path) -> bool {
    path.components().next().is_some()
        && path.components().all(|c| matches!(c, Component::Normal(_)))
}
