//! Which of the program's own files (own_files.rs) a run must see, and through what: in a box, the
//! executable, its `#!` interpreter and the absolute paths among its arguments, bound at their
//! own paths (through a readable copy when a box user could not read the original), with the
//! hidden folders inside them (hidden.rs) masked; without a mount namespace, when the runner is
//! root, reachable copies in place of files behind folders a box user cannot enter.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use crate::boxes::Key;
use crate::hidden::Hidden;
use crate::identity::{self, readable_by_others};
use crate::layout::{self, Bind};
use crate::own_files::{own_files, version};
use crate::stage::{self, Need};

/// The box a program needs (see the module docs), sized for `memory_bytes`, for `traced`
/// programs or not, with the folders in `hidden` masked wherever it shows them.
pub(crate) fn box_key(
    exe: &Path,
    argv: &[OsString],
    hidden: &Hidden,
    memory_bytes: u64,
    traced: bool,
) -> io::Result<Key> {
    let exe_meta = std::fs::metadata(exe)?;
    let wanted = own_files(exe, argv);
    let root = identity::is_root();
    // Each bind with its source's metadata and, where folders are hidden, its canonical path.
    let mut binds: Vec<(Bind, std::fs::Metadata, PathBuf)> = Vec::new();
    for (path, exec) in wanted {
        let target = layout::normalize(&path);
        if !layout::needs_bind(&target) || binds.iter().any(|(b, _, _)| b.target == target) {
            continue;
        }
        let meta = if path == exe {
            exe_meta.clone()
        } else {
            std::fs::metadata(&path)?
        };
        let canonical = match hidden.is_empty() {
            true => PathBuf::new(),
            false => hidden.canonical(&path)?,
        };
        let source = if root && !(meta.is_file() && readable_by_others(&path, exec)) {
            let emptied: Vec<&Path> = hidden.beneath(&canonical).collect();
            stage::usable(&path, exec, Need::Read, &emptied)?
        } else {
            path
        };
        binds.push((Bind { source, target }, meta, canonical));
    }
    binds.sort_by(|a, b| a.0.target.cmp(&b.0.target));
    // A path inside a folder that is shown anyway needs no bind of its own (and the shown
    // folder is read-only: no mount point could be made in it).
    let folders: Vec<PathBuf> = binds
        .iter()
        .filter(|(_, meta, _)| meta.is_dir())
        .map(|(bind, _, _)| bind.target.clone())
        .collect();
    binds.retain(|(bind, _, _)| {
        !folders
            .iter()
            .any(|folder| bind.target != *folder && bind.target.starts_with(folder))
    });
    let masks = masks(hidden, &binds);
    let versions = binds.iter().map(|(_, m, _)| version(m)).collect();
    Ok(Key {
        binds: binds.into_iter().map(|(b, _, _)| b).collect(),
        masks,
        versions,
        scratch_bytes: if memory_bytes > 0 {
            memory_bytes.max(16 << 20)
        } else {
            1 << 30
        },
        traced,
        read_only_workdir: false,
    })
}

/// Where the box masks a hidden folder: each one inside a folder it shows (a system folder, or
/// one of the program's, at that folder's place in the box).
fn masks(hidden: &Hidden, binds: &[(Bind, std::fs::Metadata, PathBuf)]) -> Vec<PathBuf> {
    if hidden.is_empty() {
        return Vec::new();
    }
    // A link among them (`/bin -> usr/bin`) is a link in the box too, into a folder masked.
    let system = layout::system_folders()
        .iter()
        .filter(|(path, canonical)| path == canonical)
        .map(|(path, canonical)| (path.clone(), canonical.clone()));
    let shown = binds
        .iter()
        .filter(|(_, meta, _)| meta.is_dir())
        .map(|(bind, _, canonical)| (bind.target.clone(), canonical.clone()));
    let mut masks: Vec<PathBuf> = system
        .chain(shown)
        .flat_map(|(target, canonical)| {
            let inside: Vec<PathBuf> = hidden.beneath(&canonical).map(|r| target.join(r)).collect();
            inside
        })
        .collect();
    masks.sort();
    masks.dedup();
    masks
}

/// For a box user without a mount namespace: the executable and argv with every file it could
/// not reach replaced by a reachable copy (argv shows the copy's path then), a copy holding the
/// folders in `hidden` empty. System folders and /proc, /dev, /sys are never copied (see
/// `layout::needs_bind`).
pub(crate) fn reachable(
    exe: &Path,
    argv: &[OsString],
    hidden: &Hidden,
) -> io::Result<(PathBuf, Vec<OsString>)> {
    let usable = |path: &Path, exec: bool| -> io::Result<PathBuf> {
        if !layout::needs_bind(&layout::normalize(path)) {
            return Ok(path.to_path_buf());
        }
        let canonical = match hidden.is_empty() {
            true => PathBuf::new(),
            false => hidden.canonical(path)?,
        };
        let emptied: Vec<&Path> = hidden.beneath(&canonical).collect();
        stage::usable(path, exec, Need::Reach, &emptied)
    };
    let exe = usable(exe, true)?;
    let mut out = Vec::with_capacity(argv.len());
    for (i, word) in argv.iter().enumerate() {
        let path = Path::new(word);
        if i > 0 && path.is_absolute() && path.exists() {
            out.push(usable(path, false)?.into_os_string());
        } else {
            out.push(word.clone());
        }
    }
    Ok((exe, out))
}
