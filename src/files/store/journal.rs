//! The journal of a fixtures root's writes (see [`super`] for the protocol): staging files,
//! committing a write of several by its plan, moving staged files into place without replacing
//! anything, durably, and recovering what a killed writer left: rolled forward when committed,
//! back when not.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rustix::io::Errno;

use super::{plain_relative, require_plain_path};

/// The folder below a fixtures root where a write stages its files; hidden, so discovery never
/// takes it for a problem.
pub(super) const JOURNAL: &str = ".grundy-journal";
/// The committed list of final paths (relative to the root) of a write of several files.
pub(super) const PLAN: &str = "plan";
pub(super) const PLAN_PARTIAL: &str = "plan.partial";

/// The journal of the write under way; removed when dropped, so a write that fails before its
/// commit leaves nothing behind.
pub(super) struct Staging {
    root: PathBuf,
    folder: PathBuf,
}

impl Staging {
    pub(super) fn begin(root: &Path) -> Result<Staging> {
        let folder = root.join(JOURNAL);
        fs::create_dir(&folder).with_context(|| {
            format!(
                "cannot write into the fixtures root `{}`: cannot create `{}`, where grundy \
                 stages what it writes",
                root.display(),
                folder.display()
            )
        })?;
        Ok(Staging {
            root: root.to_path_buf(),
            folder,
        })
    }

    pub(super) fn file(&self, index: usize) -> PathBuf {
        self.folder.join(index.to_string())
    }

    /// Writes one staged file and flushes it to the disk. New files get the usual permissions
    /// (0666 less the umask); a replaced file's are given.
    pub(super) fn stage(
        &self,
        index: usize,
        bytes: &[u8],
        permissions: Option<Permissions>,
    ) -> io::Result<()> {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.file(index))?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.write_all(bytes)?;
        file.sync_all()
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
        let partial = self.folder.join(PLAN_PARTIAL);
        File::create(&partial)
            .and_then(|mut file| file.write_all(&plan).and_then(|()| file.sync_all()))
            .and_then(|()| fs::rename(&partial, self.folder.join(PLAN)))
            .and_then(|()| sync_folder_io(&self.folder))
            .and_then(|()| sync_folder_io(&self.root))
            .with_context(|| format!("cannot write `{}`", self.folder.join(PLAN).display()))
    }

    /// Withdraws the commit of a write that failed while moving its files into place (they are
    /// back in the journal): without its plan the journal is rolled back, here or by recovery.
    pub(super) fn uncommit(&self) {
        let _ = fs::remove_file(self.folder.join(PLAN));
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.folder);
    }
}

/// Finishes the write that a killed writer left in `root`'s journal, if any; the caller holds the
/// exclusive lock. Staged files of a committed write are moved into place, any others deleted.
pub(super) fn recover(root: &Path) -> Result<()> {
    let journal = root.join(JOURNAL);
    match journal.symlink_metadata() {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Ok(meta) if meta.is_dir() => {}
        // Not a folder (a file, or a link, never followed): nothing of grundy's is in it.
        _ => {
            return fs::remove_file(&journal).with_context(|| {
                format!(
                    "`{}` is in the way of grundy's journal of unfinished writes; remove it",
                    journal.display()
                )
            })
        }
    }
    if let Some(finals) = read_plan(&journal) {
        let mut folders = Vec::new();
        for (index, relative) in finals.iter().enumerate() {
            let staged = journal.join(index.to_string());
            if !staged.is_file() {
                continue; // moved into place before the interruption
            }
            let target = root.join(relative);
            let moved = match target.parent() {
                // A folder made for the case may not have reached the disk before a crash.
                Some(folder) => require_plain_path(root, relative)
                    .and_then(|()| create_folders(root, folder))
                    .map_err(|error| io::Error::other(format!("{error:#}"))),
                None => Ok(()),
            }
            .and_then(|()| move_new(&staged, &target));
            match moved {
                Ok(()) => {
                    eprintln!(
                        "note: finished writing `{}`, which an interrupted grundy left half done",
                        target.display()
                    );
                    folders.extend(target.parent().map(Path::to_path_buf));
                }
                // A hard link made, the removal of the staged name interrupted.
                Err(_) if same_file(&staged, &target) => {}
                Err(error) => eprintln!(
                    "warning: could not finish writing `{}`, which an interrupted grundy left \
                     half done ({error}); its case may lack that file",
                    target.display()
                ),
            }
        }
        folders.dedup();
        for folder in folders {
            sync_folder(&folder)?;
        }
    }
    fs::remove_dir_all(&journal).with_context(|| {
        format!(
            "cannot remove `{}`, left by an interrupted grundy; remove it by hand",
            journal.display()
        )
    })
}

/// The committed plan: final paths, relative to the root, of staged files `0`, `1`, ... `None`
/// when there is none (nothing was committed) or it is not one grundy wrote.
fn read_plan(journal: &Path) -> Option<Vec<PathBuf>> {
    let text = fs::read(journal.join(PLAN)).ok()?;
    let finals: Vec<PathBuf> = serde_json::from_slice::<Vec<String>>(&text)
        .ok()?
        .into_iter()
        .map(PathBuf::from)
        .collect();
    finals.iter().all(|p| plain_relative(p)).then_some(finals)
}

/// Renames `from` to `to` unless something stands at `to` (then `AlreadyExists`).
pub(super) fn move_new(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            // A filesystem without RENAME_NOREPLACE: a hard link never replaces either.
            Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {}
            Err(error) => return Err(error.into()),
        }
    }
    fs::hard_link(from, to)?;
    fs::remove_file(from)
}

/// Creates `folder` (below `root`) and the folders above it that are missing, each made durable
/// in its parent.
pub(super) fn create_folders(root: &Path, folder: &Path) -> Result<()> {
    let mut missing = Vec::new();
    let mut above = Some(folder);
    while let Some(path) = above.filter(|p| *p != root && !p.is_dir()) {
        missing.push(path);
        above = path.parent();
    }
    for path in missing.into_iter().rev() {
        match fs::create_dir(path) {
            Err(error) if error.kind() != io::ErrorKind::AlreadyExists => {
                return Err(error)
                    .with_context(|| format!("cannot create the folder `{}`", path.display()))
            }
            _ => sync_folder(path.parent().unwrap_or(root))?,
        }
    }
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (a.symlink_metadata(), b.symlink_metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

pub(super) fn sync_folder(folder: &Path) -> Result<()> {
    sync_folder_io(folder).with_context(|| format!("cannot flush `{}`", folder.display()))
}

/// Flushes a folder's entries (new names, renames) to the disk.
fn sync_folder_io(folder: &Path) -> io::Result<()> {
    File::open(folder)?.sync_all()
}
