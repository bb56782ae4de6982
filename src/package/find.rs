//! Finding packages: a `PKG` argument is a package (a folder holding `problem.yaml`) or a contest
//! (a folder of packages). In a contest, folders without `problem.yaml` are skipped (`Skipped`,
//! which the command notes), never an error, and hidden folders silently. Package names are
//! folder names of any form (`HelloWorld`, `a_plus_b`, `different`).

use std::path::{Path, PathBuf};

use super::yaml::Diagnostic;

/// The packages under one argument, and what was passed over.
#[derive(Debug, Default, PartialEq)]
pub struct Found {
    pub packages: Vec<PathBuf>,
    /// The folders passed over.
    pub skipped: Vec<Skipped>,
}

/// A folder of a contest passed over: it holds no `problem.yaml`.
#[derive(Debug, PartialEq)]
pub struct Skipped(pub PathBuf);

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skipped {}: no problem.yaml in it", self.0.display())
    }
}

/// The packages at `path`, sorted by folder name.
pub fn find(path: &Path) -> Result<Found, Diagnostic> {
    if !path.is_dir() {
        return Err(Diagnostic::file(path, "no such folder"));
    }
    if path.join("problem.yaml").is_file() {
        return Ok(Found {
            packages: vec![path.to_path_buf()],
            skipped: vec![],
        });
    }
    let listing = std::fs::read_dir(path)
        .map_err(|e| Diagnostic::file(path, format!("cannot list it: {e}")))?;
    let mut folders: Vec<PathBuf> = listing
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut found = Found::default();
    for folder in folders {
        if folder.join("problem.yaml").is_file() {
            found.packages.push(folder);
        } else {
            found.skipped.push(Skipped(folder));
        }
    }
    if found.packages.is_empty() {
        return Err(Diagnostic::file(
            path,
            "no problem package here: neither this folder nor any folder in it holds a problem.yaml",
        ));
    }
    Ok(found)
}

/// A package's name: its folder's name (of `.` too).
pub fn name_of(package: &Path) -> String {
    package
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .or_else(|| {
            package
                .canonicalize()
                .ok()?
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A temporary folder holding the empty files `files` (paths below it).
    pub(crate) fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for path in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        dir
    }

    #[test]
    fn a_package_is_itself() {
        let dir = tree(&["HelloWorld/problem.yaml"]);
        let found = find(&dir.path().join("HelloWorld")).unwrap();
        assert_eq!(found.packages, [dir.path().join("HelloWorld")]);
        assert_eq!(name_of(&found.packages[0]), "HelloWorld");
    }

    #[test]
    fn a_contest_lists_its_packages_and_notes_the_rest() {
        let dir = tree(&[
            "different/problem.yaml",
            "a_plus_b/problem.yaml",
            "HelloWorld/problem.yaml",
            "notes/readme.txt",
            ".git/config",
            "contest.yaml",
        ]);
        let found = find(dir.path()).unwrap();
        let names: Vec<_> = found.packages.iter().map(|p| name_of(p)).collect();
        assert_eq!(names, ["HelloWorld", "a_plus_b", "different"]);
        assert_eq!(found.skipped, [Skipped(dir.path().join("notes"))]);
        assert_eq!(
            found.skipped[0].to_string(),
            format!(
                "skipped {}: no problem.yaml in it",
                dir.path().join("notes").display()
            )
        );
    }

    #[test]
    fn nothing_to_verify_is_an_error() {
        let dir = tree(&["a/readme.txt"]);
        assert!(find(dir.path())
            .unwrap_err()
            .message
            .starts_with("no problem package here"));
        assert_eq!(
            find(&dir.path().join("missing")).unwrap_err().message,
            "no such folder"
        );
    }

    #[test]
    fn the_current_folder_has_a_name_too() {
        assert!(!name_of(Path::new(".")).is_empty());
    }
}
