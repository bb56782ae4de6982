//! Private readable copies of a program's own files, for when grundy runs as root and a box
//! user could not use the originals: a file other users may not read (a binary compiled
//! under umask 077), or, without a mount namespace, one behind a folder they may not enter
//! (a project in /root). The copy is made once per process for each version of a file (path,
//! inode, size and mtime) and kept in a root-owned folder of this process, locked like a
//! working folder (liveness.rs) and removed at exit. Whether a path needs a copy is answered
//! once per process for each version of it too.

use std::collections::HashMap;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::identity::{reachable_by_others, readable_by_others, state_subdir};
use crate::liveness::{self, LiveDir};

const PREFIX: &str = "grundy-stage-";

/// What a box user must be able to do with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Need {
    /// Read it (and exec it, for the program): it is bind-mounted into a box at its own path.
    Read,
    /// Also reach it by its path from `/`: there is no mount namespace.
    Reach,
}

type Key = (PathBuf, u64, u64, i64, i64);

struct Stage {
    dir: LiveDir,
    /// Each copy by the version of what it copies and the folders it leaves empty.
    copies: Mutex<HashMap<(Key, Vec<PathBuf>), PathBuf>>,
}

/// `path` itself if a box user can use it as `need` says, else a readable copy, in which the
/// folders at `emptied` (relative to `path`: folders the program must not see, hidden.rs) are
/// left empty.
pub(crate) fn usable(
    path: &Path,
    exec: bool,
    need: Need,
    emptied: &[&Path],
) -> io::Result<PathBuf> {
    let meta = std::fs::metadata(path)?;
    let key = key_of(path, &meta);
    if usable_as_is(&key, exec, need) {
        return Ok(path.to_path_buf());
    }
    if !meta.is_file() && !meta.is_dir() {
        return Ok(path.to_path_buf()); // a device, a FIFO, a socket: never copied
    }
    let stage = stage()?;
    let mut copies = stage.copies.lock().unwrap_or_else(|e| e.into_inner());
    let key = (key, emptied.iter().map(|p| p.to_path_buf()).collect());
    if let Some(copy) = copies.get(&key) {
        return Ok(copy.clone());
    }
    let holder = stage.dir.path().join(copies.len().to_string());
    std::fs::DirBuilder::new().mode(0o711).create(&holder)?;
    let name = path.file_name().unwrap_or(path.as_os_str());
    let copy = holder.join(name);
    copy_tree(path, &copy, Path::new(""), emptied)?;
    copies.insert(key, copy.clone());
    Ok(copy)
}

/// A version of the file or folder at `path`: its path, inode, mtime and size.
fn key_of(path: &Path, meta: &std::fs::Metadata) -> Key {
    (
        path.to_path_buf(),
        meta.dev(),
        meta.ino(),
        meta.mtime(),
        meta.mtime_nsec() ^ meta.size() as i64,
    )
}

/// Whether a box user can use the path of `key` as it is, answered once per process for each
/// version of it, as copies are made. A folder's answer reads its whole tree (a pyenv Python is
/// tens of thousands of files), which every run showing that folder asked again: most of a
/// contained Python run's cost. A file inside made unreadable later, which leaves the folder's
/// key as it was, is then refused to the program by the kernel: it never reads more than other
/// users may.
fn usable_as_is(key: &Key, exec: bool, need: Need) -> bool {
    // One answer per question, and one reader of it: workers asking at once (each one's first
    // run of the same interpreter) wait for the first to finish its walk instead of each
    // walking the same tree.
    type Verdicts = Mutex<HashMap<(Key, bool, Need), Arc<OnceLock<bool>>>>;
    static KNOWN: OnceLock<Verdicts> = OnceLock::new();
    let known = KNOWN.get_or_init(Verdicts::default);
    let verdict = Arc::clone(
        known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((key.clone(), exec, need))
            .or_default(),
    );
    *verdict.get_or_init(|| {
        let path = &key.0;
        #[cfg(test)]
        tests::WALKED.lock().unwrap().push(path.clone());
        match need {
            Need::Read => readable_by_others(path, exec),
            Need::Reach => reachable_by_others(path, exec),
        }
    })
}

fn stage() -> io::Result<&'static Stage> {
    static STAGE: OnceLock<Stage> = OnceLock::new();
    static MADE: Mutex<()> = Mutex::new(());
    if let Some(stage) = STAGE.get() {
        return Ok(stage);
    }
    let _one_at_a_time = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(stage) = STAGE.get() {
        return Ok(stage);
    }
    let parent = state_subdir("stage", 0o711)?;
    liveness::sweep(&parent, PREFIX, crate::scrub::remove);
    let dir = LiveDir::create(&parent, PREFIX, 0o711)?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o711))?;
    let stage = STAGE.get_or_init(|| Stage {
        dir,
        copies: Mutex::new(HashMap::new()),
    });
    // SAFETY: remove_at_exit is a plain extern "C" fn without arguments.
    unsafe { libc::atexit(remove_at_exit) };
    Ok(stage)
}

extern "C" fn remove_at_exit() {
    if let Ok(stage) = stage() {
        crate::scrub::remove(stage.dir.path());
    }
}

/// Copies a file (mode 0555 if executable by its owner, else 0444) or a folder tree (folders
/// 0555, symlinks as they are, other special files left out, and the folders at `emptied`
/// made empty); `from` is at `relative` in the tree copied.
fn copy_tree(from: &Path, to: &Path, relative: &Path, emptied: &[&Path]) -> io::Result<()> {
    let meta = std::fs::metadata(from)?;
    if meta.is_dir() {
        std::fs::DirBuilder::new().mode(0o755).create(to)?;
        // A hidden folder is there, empty: a box masks it at that place.
        let listed = match emptied.contains(&relative) {
            true => None,
            false => Some(std::fs::read_dir(from)?),
        };
        for entry in listed.into_iter().flatten() {
            let entry = entry?;
            let kind = entry.file_type()?;
            let target = to.join(entry.file_name());
            if kind.is_symlink() {
                std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, &target)?;
            } else if kind.is_dir() || kind.is_file() {
                let inner = relative.join(entry.file_name());
                copy_tree(&entry.path(), &target, &inner, emptied)?;
            }
        }
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o555))
    } else {
        std::fs::copy(from, to)?;
        let mode = if meta.mode() & 0o100 != 0 {
            0o555
        } else {
            0o444
        };
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(mode))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path whose answer was read, in order (tests of other paths run alongside).
    pub(super) static WALKED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

    #[test]
    fn workers_asking_at_once_wait_for_one_reading() {
        let dir = std::env::temp_dir().join(format!("grundy-stage-once-{}", std::process::id()));
        for i in 0..300 {
            std::fs::create_dir_all(dir.join(format!("d{}", i % 30))).unwrap();
            std::fs::write(dir.join(format!("d{}/f{i}", i % 30)), b"x").unwrap();
        }
        let key = key_of(&dir, &std::fs::metadata(&dir).unwrap());
        let gate = std::sync::Barrier::new(8);
        let answers: Vec<bool> = std::thread::scope(|scope| {
            let asking: Vec<_> = (0..8)
                .map(|_| {
                    scope.spawn(|| {
                        gate.wait();
                        usable_as_is(&key, false, Need::Read)
                    })
                })
                .collect();
            asking.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert!(answers.iter().all(|&usable| usable), "{answers:?}");
        let walks = WALKED.lock().unwrap().iter().filter(|p| **p == dir).count();
        assert_eq!(walks, 1, "eight askers at once, one reading of the folder");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_copy_holds_the_folders_hidden_from_the_program_empty() {
        let dir = std::env::temp_dir().join(format!("grundy-stage-hide-{}", std::process::id()));
        let project = dir.join("project");
        std::fs::create_dir_all(project.join("fixtures/nim")).unwrap();
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::write(project.join("fixtures/nim/a.out"), "answer\n").unwrap();
        std::fs::write(project.join("src/Main.class"), "class\n").unwrap();
        let copy = dir.join("copy");
        let hidden = [Path::new("fixtures")];
        copy_tree(&project, &copy, Path::new(""), &hidden).unwrap();
        assert_eq!(
            std::fs::read(copy.join("src/Main.class")).unwrap(),
            b"class\n"
        );
        let left = std::fs::read_dir(copy.join("fixtures")).unwrap().count();
        assert_eq!(left, 0, "the hidden folder is there, empty");
        crate::scrub::remove(&dir);
    }

    #[test]
    fn a_folders_answer_is_read_once_for_each_version_of_it() {
        let dir = std::env::temp_dir().join(format!("grundy-stage-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        let file = dir.join("lib/a.py");
        std::fs::write(&file, b"x").unwrap();
        let mode = |path: &Path, bits| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).unwrap()
        };
        mode(&dir, 0o755);
        mode(&dir.join("lib"), 0o755);
        mode(&file, 0o644);
        let key = |path: &Path| key_of(path, &std::fs::metadata(path).unwrap());
        let first = key(&dir);
        assert!(usable_as_is(&first, false, Need::Read));
        // Deep inside, the folder's own version is unchanged: the kept answer stands.
        mode(&file, 0o600);
        assert_eq!(key(&dir), first);
        assert!(usable_as_is(&first, false, Need::Read));
        // A new version of the folder is read again, and the closed file is found.
        std::fs::write(dir.join("b.py"), b"y").unwrap();
        let second = key(&dir);
        assert_ne!(second, first);
        assert!(!usable_as_is(&second, false, Need::Read));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
