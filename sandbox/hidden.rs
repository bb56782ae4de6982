//! Host folders a program must never see, whatever its command line names
//! ([`Program::hide`](crate::Program::hide): the answers of the cases it is judged on).
//!
//! A path the program is shown (its executable, its `#!` interpreter, an absolute path among its
//! arguments, a folder of `Program::show`) that is such a folder or lies in one is refused. A
//! shown folder that holds one shows it empty: in a box an empty read-only tmpfs is mounted over
//! it (layout.rs); under Landlock, which cannot take back part of what it grants, every other
//! entry on the way to it is granted one by one instead of the folder ([`Hidden::around`]);
//! where neither is possible (no namespaces, no Landlock) the run is refused. Paths are compared
//! canonical, and the folders above a shown path also by device and inode, so a link to a hidden
//! folder, or a bind mount of it elsewhere, is that folder.

use std::ffi::OsString;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::Program;

/// At most this many entries are granted one by one around the hidden folders of one shown
/// folder under Landlock (a rule each).
pub(crate) const MAX_GRANTS: usize = 4096;

/// Why a program cannot be shown what its command line names without what it must not see.
/// `shown` is the path as the program names it; `hidden` as [`Program::hide`](crate::Program)
/// gives it.
#[derive(Debug, thiserror::Error)]
pub enum HiddenError {
    /// A path the program is shown is a hidden folder, or lies in one.
    #[error(
        "`{}` is hidden from the program: it is, or lies in, `{}`",
        shown.display(),
        hidden.display()
    )]
    Inside { shown: PathBuf, hidden: PathBuf },
    /// A folder the program is shown holds a hidden one, and nothing here can hide part of a
    /// folder (no namespaces, no Landlock).
    #[error(
        "`{}` holds `{}`, which is hidden from the program, and this machine cannot show a \
         folder without a part of it (it allows no namespaces and has no Landlock)",
        shown.display(),
        hidden.display()
    )]
    CannotMask { shown: PathBuf, hidden: PathBuf },
    /// Landlock would need a rule for more entries than it is given around a hidden folder.
    #[error(
        "`{}` holds `{}`, which is hidden from the program: Landlock hides it only by granting \
         every other entry on the way one by one, and there are more than {MAX_GRANTS}",
        shown.display(),
        hidden.display()
    )]
    TooManyEntries { shown: PathBuf, hidden: PathBuf },
}

/// The hidden folders of one run that exist (the outermost of each nest only), and the
/// canonical path of each path the program is shown, found when they were checked.
#[derive(Debug, Default)]
pub(crate) struct Hidden {
    folders: Vec<Folder>,
    shown: Vec<(PathBuf, PathBuf)>,
}

#[derive(Debug)]
struct Folder {
    given: PathBuf,
    canonical: PathBuf,
    /// Device and inode: the same folder under another path (a bind mount) is found too.
    id: (u64, u64),
}

impl Hidden {
    /// The folders of `hide` that exist (one that does not has nothing to hide).
    pub(crate) fn of(hide: &[PathBuf]) -> Hidden {
        let mut folders: Vec<Folder> = hide
            .iter()
            .filter_map(|given| {
                let canonical = std::fs::canonicalize(given).ok()?;
                let meta = std::fs::metadata(&canonical).ok()?;
                Some(Folder {
                    given: given.clone(),
                    canonical,
                    id: (meta.dev(), meta.ino()),
                })
            })
            .collect();
        folders.sort_by(|a, b| a.canonical.cmp(&b.canonical));
        let mut outermost: Vec<Folder> = Vec::with_capacity(folders.len());
        for folder in folders {
            if !outermost
                .iter()
                .any(|o| folder.canonical.starts_with(&o.canonical))
            {
                outermost.push(folder);
            }
        }
        Hidden {
            folders: outermost,
            shown: Vec::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.folders.is_empty()
    }

    /// The canonical path of `path`: as found by the check for a path the program is shown.
    pub(crate) fn canonical(&self, path: &Path) -> io::Result<PathBuf> {
        match self.shown.iter().find(|(shown, _)| shown == path) {
            Some((_, canonical)) => Ok(canonical.clone()),
            None => std::fs::canonicalize(path),
        }
    }

    /// `shown`'s canonical path (None if it does not exist), unless it is a hidden folder or
    /// lies in one.
    pub(crate) fn check(&self, shown: &Path) -> Result<Option<PathBuf>, HiddenError> {
        let Ok(canonical) = std::fs::canonicalize(shown) else {
            return Ok(None);
        };
        for folder in canonical.ancestors() {
            let id = std::fs::metadata(folder).ok().map(|m| (m.dev(), m.ino()));
            let hit = self
                .folders
                .iter()
                .find(|h| h.canonical == folder || Some(h.id) == id);
            if let Some(hit) = hit {
                return Err(HiddenError::Inside {
                    shown: shown.to_path_buf(),
                    hidden: hit.given.clone(),
                });
            }
        }
        Ok(Some(canonical))
    }

    /// The hidden folders strictly inside the folder at `canonical`, relative to it.
    pub(crate) fn beneath<'a>(&'a self, canonical: &'a Path) -> impl Iterator<Item = &'a Path> {
        self.folders
            .iter()
            .filter_map(move |h| h.canonical.strip_prefix(canonical).ok())
            .filter(|relative| !relative.as_os_str().is_empty())
    }

    /// What Landlock grants instead of the shown folder `shown` (at `canonical`), which holds
    /// hidden folders: every entry of it that is not on the way to one, and the same again in
    /// each folder on the way. Links are left out (an access
    /// through one is checked where it leads), so the folder itself and those on the way cannot
    /// be listed, while everything else in them can be read.
    pub(crate) fn around(
        &self,
        shown: &Path,
        canonical: &Path,
    ) -> Result<Vec<PathBuf>, HiddenError> {
        let inside: Vec<&Path> = self
            .folders
            .iter()
            .map(|h| h.canonical.as_path())
            .filter(|h| *h != canonical && h.starts_with(canonical))
            .collect();
        let mut grants = Vec::new();
        let mut pending = vec![canonical.to_path_buf()];
        while let Some(folder) = pending.pop() {
            // A folder grundy cannot list, its program (no more privileged) cannot either.
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_symlink() || inside.contains(&path.as_path()) {
                    continue;
                }
                if kind.is_dir() && inside.iter().any(|h| h.starts_with(&path)) {
                    pending.push(path);
                    continue;
                }
                if grants.len() == MAX_GRANTS {
                    let hidden = self
                        .folders
                        .iter()
                        .find(|h| h.canonical.starts_with(canonical));
                    return Err(HiddenError::TooManyEntries {
                        shown: shown.to_path_buf(),
                        hidden: hidden.map(|h| h.given.clone()).unwrap_or_default(),
                    });
                }
                grants.push(path);
            }
        }
        Ok(grants)
    }
}

/// The hidden folders of `program`, run as `exe`, once none of the paths it is shown is one or
/// lies in one, and, where this machine cannot mask part of a folder (`can_mask` false), no
/// folder it is shown holds one. The answer is kept for the next run of the same command: where
/// anything can be hidden (a box, Landlock) a program can change no path it is shown, and
/// elsewhere it could read everything anyway.
pub(crate) fn check(
    program: &Program,
    exe: &Path,
    can_mask: bool,
) -> Result<Arc<Hidden>, HiddenError> {
    static NOTHING: OnceLock<Arc<Hidden>> = OnceLock::new();
    if program.hide.is_empty() {
        return Ok(Arc::clone(NOTHING.get_or_init(Arc::default)));
    }
    type Checked = Vec<(Asked, Arc<Hidden>)>;
    static CHECKED: Mutex<Checked> = Mutex::new(Vec::new());
    const KEPT: usize = 256;
    let checked = || CHECKED.lock().unwrap_or_else(|e| e.into_inner());
    let asked = |a: &Asked| {
        a.exe == exe
            && a.can_mask == can_mask
            && a.hide == program.hide
            && a.argv == program.argv
            && a.show == program.show
    };
    if let Some((_, hidden)) = checked().iter().find(|(a, _)| asked(a)) {
        return Ok(Arc::clone(hidden));
    }
    let mut hidden = Hidden::of(&program.hide);
    let own = crate::own_files::own_files(exe, &program.argv);
    let shown = own
        .into_iter()
        .map(|(path, _)| path)
        .chain(program.show.iter().cloned());
    for path in shown {
        let Some(canonical) = hidden.check(&path)? else {
            continue;
        };
        if !can_mask {
            if let Some(inside) = hidden.beneath(&canonical).next() {
                return Err(HiddenError::CannotMask {
                    shown: path,
                    hidden: given_of(&hidden, &canonical.join(inside)),
                });
            }
        }
        hidden.shown.push((path, canonical));
    }
    let hidden = Arc::new(hidden);
    let mut kept = checked();
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    let asked = Asked {
        hide: program.hide.clone(),
        exe: exe.to_path_buf(),
        argv: program.argv.clone(),
        show: program.show.clone(),
        can_mask,
    };
    kept.push((asked, Arc::clone(&hidden)));
    Ok(hidden)
}

/// What [`check`] was asked.
struct Asked {
    hide: Vec<PathBuf>,
    exe: PathBuf,
    argv: Vec<OsString>,
    show: Vec<PathBuf>,
    can_mask: bool,
}

/// The hidden folder at `canonical` as it was given.
fn given_of(hidden: &Hidden, canonical: &Path) -> PathBuf {
    hidden
        .folders
        .iter()
        .find(|h| h.canonical == canonical)
        .map_or_else(|| canonical.to_path_buf(), |h| h.given.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden_in(dir: &Path, names: &[&str]) -> Hidden {
        Hidden::of(&names.iter().map(|n| dir.join(n)).collect::<Vec<_>>())
    }

    #[test]
    fn a_path_in_a_hidden_folder_is_refused_by_any_name() {
        let dir = tempfile_dir("inside");
        std::fs::create_dir_all(dir.join("fixtures/nim")).unwrap();
        std::fs::write(dir.join("fixtures/nim/a.out"), "1\n").unwrap();
        std::os::unix::fs::symlink(dir.join("fixtures/nim"), dir.join("link")).unwrap();
        let hidden = hidden_in(&dir, &["fixtures", "fixtures/nim", "missing"]);
        assert_eq!(
            hidden.folders.len(),
            1,
            "the outermost only, and none missing"
        );
        for shown in [
            "fixtures",
            "fixtures/nim/a.out",
            "link/a.out",
            "fixtures/nim/..",
        ] {
            let error = hidden.check(&dir.join(shown)).unwrap_err();
            assert!(
                matches!(&error, HiddenError::Inside { hidden, .. } if *hidden == dir.join("fixtures")),
                "{shown}: {error}"
            );
        }
        let canonical = std::fs::canonicalize(&dir).unwrap();
        assert_eq!(hidden.check(&dir).unwrap(), Some(canonical.clone()));
        assert_eq!(
            hidden.beneath(&canonical).collect::<Vec<_>>(),
            [Path::new("fixtures")]
        );
        assert_eq!(hidden.check(&dir.join("nothing")).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn landlock_is_given_every_entry_but_the_way_to_the_hidden_folder() {
        let dir = tempfile_dir("around");
        for folder in ["a/b/hidden/deep", "a/b/open", "a/c", "d"] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
        }
        for file in ["x.py", "a/y", "a/b/z", "a/b/hidden/answer"] {
            std::fs::write(dir.join(file), "").unwrap();
        }
        std::os::unix::fs::symlink(dir.join("a/b/hidden"), dir.join("link")).unwrap();
        let canonical = std::fs::canonicalize(&dir).unwrap();
        let hidden = Hidden::of(&[dir.join("a/b/hidden")]);
        let mut granted = hidden.around(&dir, &canonical).unwrap();
        granted.sort();
        let expected: Vec<PathBuf> = ["a/b/open", "a/b/z", "a/c", "a/y", "d", "x.py"]
            .iter()
            .map(|p| canonical.join(p))
            .collect();
        assert_eq!(granted, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn landlock_grants_are_bounded() {
        let dir = tempfile_dir("bounded");
        std::fs::create_dir_all(dir.join("hidden")).unwrap();
        for i in 0..=MAX_GRANTS {
            std::fs::write(dir.join(format!("f{i}")), "").unwrap();
        }
        let canonical = std::fs::canonicalize(&dir).unwrap();
        let hidden = Hidden::of(&[dir.join("hidden")]);
        let error = hidden.around(&dir, &canonical).unwrap_err();
        assert!(
            matches!(&error, HiddenError::TooManyEntries { hidden, .. } if *hidden == dir.join("hidden")),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn without_masks_a_shown_folder_holding_a_hidden_one_is_refused() {
        let dir = tempfile_dir("unmasked");
        std::fs::create_dir_all(dir.join("fixtures")).unwrap();
        let program = Program {
            hide: vec![dir.join("fixtures")],
            ..Program::new(["/bin/sh".into(), dir.clone().into_os_string()])
        };
        assert!(check(&program, Path::new("/bin/sh"), true).is_ok());
        let error = check(&program, Path::new("/bin/sh"), false).unwrap_err();
        assert!(
            matches!(&error, HiddenError::CannotMask { shown, .. } if *shown == dir),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-hidden-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
