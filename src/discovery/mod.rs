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

pub use case::{Case, Expects, INVALID_GROUP};
pub use filter::select_cases;
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
pub(crate) mod tests {
    use super::*;
    use std::fs;

    pub(crate) fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "1\n").unwrap();
        }
        dir
    }

    fn ids(fixtures: &Fixtures) -> Vec<&str> {
        fixtures.cases.iter().map(|c| c.id.as_str()).collect()
    }

    #[test]
    fn finds_nested_cases_with_out_or_ans_sorted() {
        let dir = tree(&[
            "s-nim/b.in",
            "s-nim/b.ans",
            "s-nim/a.in",
            "s-nim/a.out",
            "nim/large/deep/x.in",
            "nim/large/deep/x.out",
            "nim/notes.txt",
            "nim/no-expected.in",
        ]);
        let found = discover(dir.path(), |_| true).unwrap();
        assert_eq!(
            ids(&found),
            ["nim/large/deep/x", "nim/no-expected", "s-nim/a", "s-nim/b"]
        );
        assert_eq!(found.cases[0].name(), "large/deep/x");
        assert!(found.cases[1].expected.is_none());
        assert!(found.cases[3]
            .expected
            .as_ref()
            .unwrap()
            .path()
            .ends_with("b.ans"));
        assert_eq!(found.problems, ["nim", "s-nim"]);
    }

    #[test]
    fn layout_errors_name_the_files() {
        let both = tree(&["nim/a.in", "nim/a.out", "nim/a.ans"]);
        let err = discover(both.path(), |_| true).unwrap_err().to_string();
        assert!(err.contains("a.out") && err.contains("a.ans"), "{err}");
        let orphan = tree(&["nim/a.out"]);
        let err = discover(orphan.path(), |_| true).unwrap_err().to_string();
        assert!(
            err.contains("has no input") && err.contains("a.in"),
            "{err}"
        );
        let loose = tree(&["a.in"]);
        assert!(discover(loose.path(), |_| true)
            .unwrap_err()
            .to_string()
            .contains("directly in"));
        let bad_id = tree(&["S_Nim/a.in"]);
        assert!(discover(bad_id.path(), |_| true)
            .unwrap_err()
            .to_string()
            .contains("kebab-case"));
        let missing = discover(Path::new("/nonexistent/fixtures"), |_| true).unwrap_err();
        assert!(format!("{missing:#}").contains("--fixtures"), "{missing:#}");
    }

    #[test]
    fn invalid_groups_expect_err_files_and_only_they_may_have_them() {
        let dir = tree(&[
            "nim/invalid/x.in",
            "nim/invalid/x.err",
            "nim/deep/invalid/y.in",
            "nim/invalid/no-message.in",
            "nim/invalid.in",
            "nim/invalid.out",
            "nim/extended/big.in",
            "nim/extended/big.out",
        ]);
        let found = discover(dir.path(), |_| true).unwrap();
        assert_eq!(
            ids(&found),
            [
                "nim/deep/invalid/y",
                "nim/extended/big",
                "nim/invalid",
                "nim/invalid/no-message",
                "nim/invalid/x"
            ]
        );
        let by_id = |id: &str| found.cases.iter().find(|c| c.id == id).unwrap();
        let x = by_id("nim/invalid/x");
        assert!(x.expects_error());
        assert!(x.expected.as_ref().unwrap().path().ends_with("x.err"));
        let y = by_id("nim/deep/invalid/y");
        assert!(y.expects_error() && y.expected.is_none());
        assert!(y.default_expected_path().ends_with("invalid/y.err"));
        assert!(
            !by_id("nim/invalid").expects_error(),
            "a case named `invalid` is no group"
        );
        let big = by_id("nim/extended/big");
        assert_eq!(big.constraints, grundy_problems::Constraints::Extended);
        assert_eq!(big.expects, Expects::Output);
        assert_eq!(x.constraints, grundy_problems::Constraints::Original);

        let stray = tree(&["nim/a.in", "nim/a.err"]);
        let err = discover(stray.path(), |_| true).unwrap_err().to_string();
        assert!(err.contains("a.err") && err.contains("`invalid/`"), "{err}");
        let output = tree(&["nim/invalid/a.in", "nim/invalid/a.out"]);
        let err = discover(output.path(), |_| true).unwrap_err().to_string();
        assert!(err.contains("a.out") && err.contains("a.err"), "{err}");
        let orphan = tree(&["nim/invalid/a.err"]);
        let err = discover(orphan.path(), |_| true).unwrap_err().to_string();
        assert!(err.contains("has no input"), "{err}");
    }

    #[test]
    fn symlinks_are_skipped_not_followed() {
        let dir = tree(&["nim/a.in", "nim/a.out"]);
        std::os::unix::fs::symlink("/etc", dir.path().join("nim/escape")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("nim"), dir.path().join("nim/loop")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("nim"), dir.path().join("alias")).unwrap();
        let found = discover(dir.path(), |_| true).unwrap();
        assert_eq!(ids(&found), ["nim/a"]);
        assert_eq!(found.skipped_links.len(), 3);
    }

    #[test]
    fn hidden_entries_are_ignored_at_every_level() {
        let dir = tree(&[
            "nim/a.in",
            "nim/a.out",
            "nim/.b.in",
            "nim/.hidden/c.in",
            "nim/.hidden/orphan.out",
            ".git/x.in",
            ".grundy-journal/0",
        ]);
        let found = discover(dir.path(), |_| true).unwrap();
        assert_eq!(ids(&found), ["nim/a"]);
        assert_eq!(found.problems, ["nim"]);
    }

    #[test]
    fn stale_temporary_files_are_swept_and_others_kept() {
        let dir = tree(&["nim/a.in", "nim/.grundy-Ab12xY", "nim/.grundy-notes.txt"]);
        discover(dir.path(), |_| true).unwrap();
        assert!(!dir.path().join("nim/.grundy-Ab12xY").exists());
        assert!(dir.path().join("nim/.grundy-notes.txt").exists());
    }

    #[test]
    fn case_files_that_are_not_regular_files_are_layout_errors() {
        let dir = tree(&["nim/a.in"]);
        fs::create_dir_all(dir.path().join("nim/group/b.out")).unwrap();
        let err = discover(dir.path(), |_| true).unwrap_err().to_string();
        assert!(
            err.contains("b.out") && err.contains("a directory, not a regular file"),
            "{err}"
        );
        let dir = tree(&["nim/a.in"]);
        let fifo = dir.path().join("nim/a.out");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let err = discover(dir.path(), |_| true).unwrap_err().to_string();
        assert!(err.contains("a.out") && err.contains("FIFO"), "{err}");
    }

    #[test]
    fn package_folders_are_problems_of_any_name_with_their_judged_cases() {
        let dir = tree(&[
            "HelloWorld/problem.yaml",
            "HelloWorld/data/sample/1.in",
            "HelloWorld/data/sample/1.ans",
            "HelloWorld/data/sample/1.out",
            "HelloWorld/data/secret/group/b.in",
            "HelloWorld/data/secret/group/b.ans",
            "HelloWorld/data/invalid_input/bad.in",
            "HelloWorld/input_validators/v.py",
            "nim/a.in",
            "nim/a.out",
        ]);
        fs::write(dir.path().join("HelloWorld/problem.yaml"), "name: Hello\n").unwrap();
        let found = discover(dir.path(), |_| true).unwrap();
        assert_eq!(
            ids(&found),
            ["HelloWorld/sample/1", "HelloWorld/secret/group/b", "nim/a"]
        );
        assert_eq!(found.problems, ["HelloWorld", "nim"]);
        let sample = &found.cases[0];
        assert_eq!(sample.problem, "HelloWorld");
        assert!(sample.expected.as_ref().unwrap().path().ends_with("1.ans"));
        assert_eq!(sample.name(), "sample/1");

        // The fixtures root may be a package itself.
        let package = discover(&dir.path().join("HelloWorld"), |_| true).unwrap();
        assert_eq!(
            ids(&package),
            ["HelloWorld/sample/1", "HelloWorld/secret/group/b"]
        );

        // A package that cannot be read is a located layout error.
        fs::write(dir.path().join("HelloWorld/problem.yaml"), "name: [x\n").unwrap();
        let error = format!("{:#}", discover(dir.path(), |_| true).unwrap_err());
        assert!(error.contains("HelloWorld/problem.yaml:"), "{error}");
    }

    #[test]
    fn unwanted_problems_are_not_walked() {
        let dir = tree(&["nim/a.in", "s-nim/a.in"]);
        let found = discover(dir.path(), |p| p == "s-nim").unwrap();
        assert_eq!(ids(&found), ["s-nim/a"]);
        assert_eq!(found.problems, ["nim", "s-nim"]);
    }
}
