//! The walk of the fixtures root into its cases ([`discover`]), layout mistakes found on the
//! way.
//!
//! A case is `<root>/<problem>/[group/...]<name>.in` with its expected output beside it as
//! `<name>.out` or `<name>.ans`. Symbolic links are never followed, so nothing outside the root is
//! read and no loop is possible. Hidden entries (names starting with `.`) are ignored at every
//! level: grundy's journal of unfinished writes lives there, and so do editors' and version
//! control's files. A case file (`.in`, `.out`, `.ans`, `.err`) that is not a regular file (a
//! folder, a FIFO, a device) is a layout error.
//!
//! The walk holds the fixtures root's shared lock (see [`crate::files::store`]), after finishing
//! any write a killed grundy left, so it never sees half a case being written. Problem folders
//! are listed, and case files read later, through the root's descriptor
//! ([`crate::files::beneath`]), never by a path that could have become a link out of it, a FIFO
//! or a device since the walk. A package among them gives its cases through
//! [`super::packages::PackageCases`].

use std::ffi::{OsStr, OsString};
use std::ops::Range;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;

use super::case::{Case, Fixtures, INVALID_GROUP};
use super::packages::{PackageCases, ReadEach};
use crate::files::beneath::{Listed, Scope, Tree};
use crate::files::store;

/// Finds every case below `root`; only the problem folders `wanted` accepts are walked, each
/// package among them read as it is found ([`ReadEach`]).
pub fn discover(root: &Path, wanted: impl Fn(&str) -> bool + Sync) -> Result<Fixtures> {
    discover_with(root, wanted, &ReadEach)
}

/// [`discover`], each package's cases taken from `packages`.
pub fn discover_with(
    root: &Path,
    wanted: impl Fn(&str) -> bool + Sync,
    packages: &dyn PackageCases,
) -> Result<Fixtures> {
    let mut fixtures = Fixtures::default();
    if super::packages::is_package(root) {
        let name = crate::package::find::name_of(root);
        if wanted(&name) {
            fixtures.cases = packages.cases(&name, root)?;
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
            if !kind.is_file() {
                return Err(not_regular(&path));
            }
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
            if super::packages::is_package(folder) {
                if wanted(problem) {
                    found.cases = packages.cases(problem, folder)?;
                }
            } else if !is_kebab_case(problem) {
                bail!(
                    "problem folder `{}` is not a lowercase kebab-case id (like `s-nim`); rename \
                     it",
                    folder.display()
                );
            } else if wanted(problem) {
                discover_problem(problem, &tree, lock.is_some(), &mut found)?;
            }
            found.problems.push(problem.clone());
            Ok(found)
        })
        .collect();
    let found = found.into_iter().collect::<Result<Vec<_>>>()?;
    fixtures
        .cases
        .reserve_exact(found.iter().map(|f| f.cases.len()).sum());
    for found in found {
        fixtures.cases.extend(found.cases);
        fixtures.problems.extend(found.problems);
        fixtures.skipped_links.extend(found.skipped_links);
    }
    fixtures.cases.sort_by(|a, b| a.id.cmp(&b.id));
    fixtures.skipped_links.sort();
    Ok(fixtures)
}

/// Walks one problem folder of the fixtures root `tree`. `locked`: the root's lock is held, so a
/// temporary file an older grundy left (`.grundy-XXXXXX`) belongs to no live writer and is
/// removed.
///
/// One folder at a time, from a list of folders still to read (no recursion, however deep the
/// groups), each listed through the root's descriptor: its case files are paired by stem
/// within it and its subfolders queued in name order. Nothing is made per entry but what
/// becomes a case or a message: a walker that made a path for every entry, and sorting every
/// name, were most of discovering 10,000 files.
fn discover_problem(
    problem: &str,
    tree: &Tree,
    locked: bool,
    fixtures: &mut Fixtures,
) -> Result<()> {
    // Folders still to read, by their path below the root (the problem's name first).
    let mut pending: Vec<Vec<u8>> = vec![problem.as_bytes().to_vec()];
    // One folder's case files, as (stem, kind) with stems in one buffer, and subfolders.
    let mut stems: Vec<u8> = Vec::new();
    let mut files: Vec<(Range<usize>, CaseFile)> = Vec::new();
    let mut folders: Vec<Vec<u8>> = Vec::new();
    while let Some(below) = pending.pop() {
        let here = tree.join(OsStr::from_bytes(&below));
        let path_of = |name: &[u8]| here.path().join(OsStr::from_bytes(name));
        stems.clear();
        files.clear();
        folders.clear();
        // The first case file, by name, that is not a regular file.
        let mut irregular: Option<Vec<u8>> = None;
        let mut stale: Vec<Vec<u8>> = Vec::new();
        here.for_each_entry(|name, kind| {
            if name.starts_with(b".") {
                if locked && kind == Listed::File && store::is_stale_temporary(name) {
                    stale.push(name.to_vec());
                }
                return;
            }
            if kind == Listed::Link {
                fixtures.skipped_links.push(path_of(name));
                return;
            }
            let Some(case_file) = extension_bytes(name).and_then(CaseFile::of_extension) else {
                if kind == Listed::Folder {
                    folders.push(name.to_vec());
                }
                return;
            };
            if kind != Listed::File {
                if irregular
                    .as_ref()
                    .is_none_or(|first| name < first.as_slice())
                {
                    irregular = Some(name.to_vec());
                }
                return;
            }
            let stem = &name[..name.len() - case_file.extension().len() - 1];
            files.push((stems.len()..stems.len() + stem.len(), case_file));
            stems.extend_from_slice(stem);
        })
        .with_context(|| format!("cannot walk `{}`", here.path().display()))?;
        // Through the root's descriptor, never a link: only what the listing saw is removed.
        for name in stale {
            let _ = here.join(OsStr::from_bytes(&name)).remove();
        }
        if let Some(name) = irregular {
            return Err(not_regular(&path_of(&name)));
        }
        // Deepest first, each folder's subfolders in name order.
        folders.sort_unstable();
        pending.extend(
            folders
                .drain(..)
                .rev()
                .map(|name| join_bytes(&below, &name)),
        );
        files.sort_unstable_by(|a, b| (&stems[a.0.clone()], a.1).cmp(&(&stems[b.0.clone()], b.1)));
        // At most one case per file.
        fixtures.cases.reserve(files.len());
        for same_stem in files.chunk_by(|a, b| stems[a.0.clone()] == stems[b.0.clone()]) {
            let id = join_bytes(&below, &stems[same_stem[0].0.clone()]);
            add_case(problem, tree, id, same_stem, fixtures)?;
        }
    }
    Ok(())
}

/// `a/b` of `a` and `b`; `b` of an empty `a`.
fn join_bytes(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut joined = Vec::with_capacity(a.len() + 1 + b.len());
    joined.extend_from_slice(a);
    if !a.is_empty() {
        joined.push(b'/');
    }
    joined.extend_from_slice(b);
    joined
}

/// The case `id` (`problem/groups/name`, its path below the root without extension) whose
/// files are `files` (as its folder's walk found them: where the stem is, and which file):
/// a layout mistake is an error naming the files.
fn add_case(
    problem: &str,
    tree: &Tree,
    id: Vec<u8>,
    files: &[(Range<usize>, CaseFile)],
    fixtures: &mut Fixtures,
) -> Result<()> {
    let root = tree.path().as_os_str().as_bytes();
    // The case's path with `.extension` added (not `with_extension`: a name may hold a dot).
    let with = |extension: &str| {
        let mut path = Vec::with_capacity(root.len() + 1 + id.len() + 1 + extension.len());
        path.extend_from_slice(root);
        if !root.ends_with(b"/") {
            path.push(b'/');
        }
        path.extend_from_slice(&id);
        path.push(b'.');
        path.extend_from_slice(extension.as_bytes());
        PathBuf::from(OsString::from_vec(path))
    };
    let file = |kind: CaseFile| {
        files
            .iter()
            .any(|&(_, found)| found == kind)
            .then(|| with(kind.extension()))
    };
    let (out, ans, err) = (
        file(CaseFile::Out),
        file(CaseFile::Ans),
        file(CaseFile::Err),
    );
    let name = &id[problem.len() + 1..];
    let invalid_group = name
        .split(|&b| b == b'/')
        .rev()
        .skip(1)
        .any(|group| group == INVALID_GROUP.as_bytes());
    let expected = match (out, ans, err) {
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
                    with("err").display()
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
    let Some(input) = file(CaseFile::Input) else {
        bail!(
            "`{}` has no input `{}`; add the input or remove the expected file",
            expected.unwrap_or_default().display(),
            with("in").display()
        );
    };
    let id = String::from_utf8(id)
        .map_err(|_| anyhow::anyhow!("`{}` is not a UTF-8 path", input.display()))?;
    fixtures.cases.push(Case::fixture(
        id,
        problem.to_string(),
        tree.at(input),
        expected.map(|path| tree.at(path)),
    ));
    Ok(())
}

/// The kinds of case file, by extension.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum CaseFile {
    Input,
    Out,
    Ans,
    Err,
}

impl CaseFile {
    fn of_extension(extension: &[u8]) -> Option<CaseFile> {
        match extension {
            b"in" => Some(CaseFile::Input),
            b"out" => Some(CaseFile::Out),
            b"ans" => Some(CaseFile::Ans),
            b"err" => Some(CaseFile::Err),
            _ => None,
        }
    }

    fn extension(self) -> &'static str {
        match self {
            CaseFile::Input => "in",
            CaseFile::Out => "out",
            CaseFile::Ans => "ans",
            CaseFile::Err => "err",
        }
    }
}

/// A name's extension as `Path::extension` has it: after the last `.`, unless that `.` starts
/// the name.
fn extension_bytes(name: &[u8]) -> Option<&[u8]> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    (dot > 0).then(|| &name[dot + 1..])
}

/// The layout error for a case file at `path` that is not a regular file (a folder named
/// `x.in` is not a group; a FIFO...), naming what it is.
fn not_regular(path: &Path) -> anyhow::Error {
    let kind = std::fs::symlink_metadata(path)
        .map_or("not a regular file", |meta| crate::files::kind_of(&meta));
    anyhow::anyhow!(
        "`{}` is {kind}, not a regular file; a case file (`.in`, `.out`, `.ans`, `.err`) must be \
         a regular file: remove or rename it",
        path.display(),
    )
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
#[path = "walk_tests.rs"]
pub(crate) mod tests;
