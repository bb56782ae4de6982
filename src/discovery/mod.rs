//! Discovery: finding the cases under the fixtures root, selecting them with filters ([`filter`])
//! and splitting them into partitions ([`partition`]). Layout mistakes are errors here, before
//! anything runs.
//!
//! A case is `<root>/<problem>/[group/...]<name>.in` with its expected output beside it as
//! `<name>.out` or `<name>.ans`. Symbolic links are never followed, so nothing outside the root is
//! read and no loop is possible. Hidden entries (names starting with `.`) are ignored at every
//! level: grundy's journal of unfinished writes lives there, and so do editors' and version
//! control's files. A case file (`.in`, `.out`, `.ans`, `.err`) that is not a regular file (a
//! folder, a FIFO, a device) is a layout error.
//!
//! The walk holds the fixtures root's shared lock (see [`crate::files::store`]), after finishing
//! any write a killed grundy left, so it never sees half a case being written. Case files are
//! read later through the root's descriptor ([`crate::files::beneath`]), never by a path that
//! could have become a link out of it, a FIFO or a device since the walk.
//!
//! A folder holding `problem.yaml` is a Kattis problem package rather than a folder of cases
//! ([`packages`]): the fixtures root itself (`--fixtures PKG`) or any folder in it (a contest).
//!
//! Two group names mean something, and [`case`] reads them into each case. Below a folder named
//! [`INVALID_GROUP`] (at any depth) inputs are deliberately malformed: the expected file is
//! `<name>.err`, the exact error message the solver must reject the input with, and only there
//! may an `.err` file stand. Below a folder named `extended` inputs use the extended limits
//! rather than the original ones.

mod case;
mod filter;
mod packages;
mod partition;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use walkdir::WalkDir;

use crate::files::beneath::{Scope, Tree};
use crate::files::store;

pub use case::{constraints_of, Case, Expects, INVALID_GROUP};
pub use filter::{select_cases, Judged, LeftOut};
pub use partition::Partition;

/// What discovery found.
#[derive(Debug, Default)]
pub struct Fixtures {
    /// Every case, sorted by id.
    pub cases: Vec<Case>,
    /// Problem folders, sorted, including those without cases.
    pub problems: Vec<String>,
    /// Links found and not followed (reported with `-v`).
    pub skipped_links: Vec<PathBuf>,
}

/// Finds every case below `root`; only the problem folders `wanted` accepts are walked.
pub fn discover(root: &Path, wanted: impl Fn(&str) -> bool + Sync) -> Result<Fixtures> {
    let mut fixtures = Fixtures::default();
    if packages::is_package(root) {
        let name = crate::package::find::name_of(root);
        if wanted(&name) {
            packages::add_cases(&name, root, &mut fixtures)?;
        }
        fixtures.problems.push(name);
        return Ok(fixtures);
    }
    let lock = store::lock_for_reading(root);
    let entries = std::fs::read_dir(root).with_context(|| {
        format!(
            "cannot read the fixtures root `{}`: create it, or point to another with --fixtures DIR \
             or `fixtures = \"...\"` in runner.toml",
            root.display()
        )
    })?;
    let tree = Tree::open(root, Scope::Fixtures)
        .with_context(|| format!("cannot read the fixtures root `{}`", root.display()))?;
    let mut folders = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list `{}`", root.display()))?;
        let path = entry.path();
        if is_hidden(&path) {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            fixtures.skipped_links.push(path);
        } else if kind.is_dir() {
            folders.push((utf8_name(&path)?.to_string(), path));
        } else if is_case_file(&path) {
            require_regular(&path, kind)?;
            bail!(
                "`{}` lies directly in the fixtures root; cases belong in a problem folder, \
                 e.g. `{}`",
                path.display(),
                root.join("nim")
                    .join(path.file_name().unwrap_or_default())
                    .display()
            );
        }
    }
    folders.sort();
    // Each problem folder is a walk of its own, so they are walked in parallel; what they hold is
    // merged in folder order, so the cases and the first error are those of a walk one by one.
    let found: Vec<Result<Fixtures>> = folders
        .par_iter()
        .map(|(problem, folder)| {
            let mut found = Fixtures::default();
            if packages::is_package(folder) {
                if wanted(problem) {
                    packages::add_cases(problem, folder, &mut found)?;
                }
            } else if !is_kebab_case(problem) {
                bail!(
                    "problem folder `{}` is not a lowercase kebab-case id (like `s-nim`); rename \
                     it",
                    folder.display()
                );
            } else if wanted(problem) {
                discover_problem(problem, folder, &tree, lock.is_some(), &mut found)?;
            }
            found.problems.push(problem.clone());
            Ok(found)
        })
        .collect();
    for found in found {
        let found = found?;
        fixtures.cases.extend(found.cases);
        fixtures.problems.extend(found.problems);
        fixtures.skipped_links.extend(found.skipped_links);
    }
    fixtures.cases.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(fixtures)
}

/// Walks one problem folder of the fixtures root `tree`. `locked`: the root's lock is held, so a
/// temporary file an older grundy left (`.grundy-XXXXXX`) belongs to no live writer and is
/// removed.
///
/// Every path the walk yields is `folder` joined with names, so names, extensions and the path
/// below `folder` are found in the path's bytes rather than by parsing it into components
/// (which, with a `PathBuf` per step, was most of discovering 10,000 files).
fn discover_problem(
    problem: &str,
    folder: &Path,
    tree: &Tree,
    locked: bool,
    fixtures: &mut Fixtures,
) -> Result<()> {
    // Stem (path without extension) -> the case files found for it. Keyed by the path's bytes:
    // comparing paths component by component made this map a large part of `check`'s cost on
    // suites of many tiny cases (cases are sorted by id at the end anyway).
    let mut stems: BTreeMap<OsString, CaseFiles> = BTreeMap::new();
    // Sorted by name, compared as the entries' whole paths: siblings share everything up to
    // their names, so the order is the names' (OsStr orders by bytes either way), and no
    // comparison parses the paths into components (`sort_by_file_name` does, twice per
    // comparison: a fifth of discovering 10,000 files).
    let walk = WalkDir::new(folder)
        .follow_links(false)
        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()));
    for entry in walk.into_iter().filter_entry(|e| {
        let hidden = e.depth() > 0 && name_bytes(e.path()).starts_with(b".");
        if hidden && locked && e.file_type().is_file() && store::is_stale_temporary(e.path()) {
            let _ = std::fs::remove_file(e.path());
        }
        !hidden
    }) {
        let entry = entry.with_context(|| format!("cannot walk `{}`", folder.display()))?;
        if entry.path_is_symlink() {
            fixtures.skipped_links.push(entry.into_path());
            continue;
        }
        let kind = match extension_bytes(name_bytes(entry.path())) {
            Some(b"in") => CaseFile::Input,
            Some(b"out") => CaseFile::Out,
            Some(b"ans") => CaseFile::Ans,
            Some(b"err") => CaseFile::Err,
            _ => continue,
        };
        require_regular(entry.path(), entry.file_type())?;
        let path = entry.into_path();
        let bytes = path.as_os_str().as_encoded_bytes();
        // The stem: the path less `.` and the extension (in, out, ans or err, all ASCII).
        let stem = &bytes[..bytes.len() - kind.extension().len() - 1];
        let files = stems.entry(OsString::from_vec(stem.to_vec())).or_default();
        match kind {
            CaseFile::Input => files.input = Some(path),
            CaseFile::Out => files.out = Some(path),
            CaseFile::Err => files.err = Some(path),
            CaseFile::Ans => files.ans = Some(path),
        }
    }
    let below = folder.as_os_str().len() + 1; // the stems' bytes below `folder/`
    for (stem, files) in stems {
        let stem = PathBuf::from(stem);
        let relative = &stem.as_os_str().as_encoded_bytes()[below..];
        let invalid_group = relative
            .split(|&b| b == b'/')
            .rev()
            .skip(1)
            .any(|group| group == INVALID_GROUP.as_bytes());
        let expected = match (files.out, files.ans, files.err) {
            (Some(out), Some(ans), _) => bail!(
                "`{}` and `{}` are both expected outputs of one case; keep one",
                out.display(),
                ans.display()
            ),
            (out, ans, err) if invalid_group => {
                if let Some(output) = out.or(ans) {
                    bail!(
                        "`{}` is an expected output, but cases in an `{INVALID_GROUP}/` group \
                         expect an error: put the solver's exact error message in `{}` instead",
                        output.display(),
                        stem.with_extension("err").display()
                    );
                }
                err
            }
            (_, _, Some(err)) => bail!(
                "`{}` is an expected error message, which only cases in an `{INVALID_GROUP}/` \
                 group have; move the case into such a group, or remove the file",
                err.display()
            ),
            (out, ans, None) => out.or(ans),
        };
        let Some(input) = files.input else {
            bail!(
                "`{}` has no input `{}`; add the input or remove the expected file",
                expected.unwrap_or_default().display(),
                stem.with_extension("in").display()
            );
        };
        // The names below the problem folder joined by `/`: the path's own bytes there.
        let name = std::str::from_utf8(relative)
            .with_context(|| format!("`{}` is not a UTF-8 path", input.display()))?;
        fixtures.cases.push(Case::fixture(
            format!("{problem}/{name}"),
            problem.to_string(),
            tree.at(input),
            expected.map(|path| tree.at(path)),
        ));
    }
    Ok(())
}

/// The kinds of case file, by extension.
#[derive(Clone, Copy)]
enum CaseFile {
    Input,
    Out,
    Ans,
    Err,
}

impl CaseFile {
    fn extension(self) -> &'static str {
        match self {
            CaseFile::Input => "in",
            CaseFile::Out => "out",
            CaseFile::Ans => "ans",
            CaseFile::Err => "err",
        }
    }
}

/// The last name of a path the walk yields (a folder joined with names: it never ends in `/`
/// nor in `.` or `..`), as bytes.
fn name_bytes(path: &Path) -> &[u8] {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes.rsplit(|&b| b == b'/').next().unwrap_or(bytes)
}

/// A name's extension as `Path::extension` has it: after the last `.`, unless that `.` starts
/// the name.
fn extension_bytes(name: &[u8]) -> Option<&[u8]> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    (dot > 0).then(|| &name[dot + 1..])
}

#[derive(Default)]
struct CaseFiles {
    input: Option<PathBuf>,
    out: Option<PathBuf>,
    ans: Option<PathBuf>,
    err: Option<PathBuf>,
}

/// A layout error unless a case file is a regular file (a folder named `x.in` is not a group).
fn require_regular(path: &Path, kind: std::fs::FileType) -> Result<()> {
    if !kind.is_file() {
        bail!(
            "`{}` is {}, not a regular file; a case file (`.in`, `.out`, `.ans`, `.err`) must be \
             a regular file: remove or rename it",
            path.display(),
            store::kind(kind)
        );
    }
    Ok(())
}

/// A name starting with `.`: ignored by discovery at every level.
fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.as_encoded_bytes().starts_with(b"."))
}

fn is_case_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("in" | "out" | "ans" | "err")
    )
}

fn utf8_name(path: &Path) -> Result<&str> {
    path.file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("`{}` is not a UTF-8 name", path.display()))
}

/// `s-nim`, `lieges-of-legendre`: lowercase ASCII letters and digits in dash-separated words.
pub fn is_kebab_case(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[cfg(test)]
#[path = "discovery_tests.rs"]
pub(crate) mod tests;
