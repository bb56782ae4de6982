//! Where a command runs: the one answer every command starts from. `runner.toml` is looked for
//! in the current folder and each folder above it, as cargo looks for `Cargo.toml` (unless
//! `--config` names one), and a Kattis package holding the current folder is found the same way
//! by its `problem.yaml`; inside a package, the commands act on that package. Errors about
//! finding nothing say what was looked for, and where.
//!
//! Reads nothing but the existence of files; what they hold is `config`'s and `package`'s.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The file of runner settings looked for.
pub const RUNNER_FILE: &str = "runner.toml";
/// The file that makes a folder a package.
pub const PACKAGE_FILE: &str = "problem.yaml";

/// How the settings file was come by, which decides whether it may make the settings only the
/// user's own configuration may (`config::privileged`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Named with `--config`.
    Named,
    /// `runner.toml` in the current folder.
    Here,
    /// `runner.toml` in a folder above the current one.
    Above,
}

/// What was found around the current folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The current folder.
    pub here: PathBuf,
    /// The settings file: `--config`'s, else the nearest `runner.toml` at or above `here`.
    pub runner: Option<PathBuf>,
    /// Whether `runner` was named by `--config` rather than found.
    pub runner_given: bool,
    /// The package folder holding `here` (`here` itself or the nearest folder above it with a
    /// `problem.yaml`).
    pub package: Option<PathBuf>,
}

impl Place {
    /// Looks around the current folder; `config` is `--config`'s file, which is then the
    /// settings file whether or not it exists (loading it says so).
    pub fn find(config: Option<&Path>) -> Result<Place> {
        let here = std::env::current_dir().context("cannot read the working directory")?;
        Ok(Place::around(here, config))
    }

    /// [`Place::find`] from `here`.
    pub fn around(here: PathBuf, config: Option<&Path>) -> Place {
        let runner = match config {
            Some(path) => Some(path.to_path_buf()),
            None => nearest(&here, RUNNER_FILE).map(|dir| match dir == Path::new(".") {
                true => PathBuf::from(RUNNER_FILE),
                false => dir.join(RUNNER_FILE),
            }),
        };
        let package = nearest(&here, PACKAGE_FILE);
        Place {
            runner_given: config.is_some(),
            runner,
            package,
            here,
        }
    }

    /// How [`Place::runner`] was found ([`nearest`] gives the current folder as `.`).
    pub fn runner_found(&self) -> Found {
        match &self.runner {
            _ if self.runner_given => Found::Named,
            Some(file) if file == Path::new(RUNNER_FILE) => Found::Here,
            _ => Found::Above,
        }
    }

    /// The project folder: the settings file's folder, else the current one.
    pub fn project(&self) -> PathBuf {
        match &self.runner {
            Some(file) if !self.runner_given && file.is_absolute() => {
                file.parent().unwrap_or(&self.here).to_path_buf()
            }
            _ => self.here.clone(),
        }
    }

    /// What was looked for, and where, for an error that found nothing to act on.
    pub fn nothing_here(&self, what: &str) -> NothingHere {
        NothingHere {
            what: what.to_string(),
            here: self.here.clone(),
        }
    }
}

/// Nothing to act on around the current folder.
#[derive(Debug, thiserror::Error)]
#[error(
    "no {what} here: looked for `{PACKAGE_FILE}` (a problem package) and `{RUNNER_FILE}` (a \
     project of fixtures) in {} and every folder above it, and found neither; run inside a \
     package (`grundy new NAME` makes one), pass its folder, or point to fixtures with \
     --fixtures DIR",
    here.display()
)]
pub struct NothingHere {
    what: String,
    here: PathBuf,
}

/// The nearest folder at or above `here` holding a regular file `name`; `.` when it is `here`
/// (what messages show then stays relative, as the user sees it).
fn nearest(here: &Path, name: &str) -> Option<PathBuf> {
    let found = here.ancestors().find(|dir| dir.join(name).is_file())?;
    Some(match found == here {
        true => PathBuf::from("."),
        false => found.to_path_buf(),
    })
}

/// The first folder of `here` below `root` (`s-nim` of `<root>/s-nim/large`), when `here` is
/// inside `root` but not `root` itself: the problem a command run there is about.
pub fn problem_folder(root: &Path, here: &Path) -> Option<String> {
    let root = std::fs::canonicalize(root).ok()?;
    let here = std::fs::canonicalize(here).ok()?;
    let below = here.strip_prefix(&root).ok()?;
    let first = below.components().next()?;
    Some(first.as_os_str().to_str()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::find::tests::tree;

    #[test]
    fn the_nearest_settings_and_package_above_are_found() {
        let dir = tree(&[
            "runner.toml",
            "fixtures/s-nim/large/a.in",
            "fixtures/hello/problem.yaml",
            "fixtures/hello/data/secret/1.in",
        ]);
        let root = dir.path();
        let deep = root.join("fixtures/hello/data/secret");
        let place = Place::around(deep.clone(), None);
        assert_eq!(place.runner, Some(root.join("runner.toml")));
        assert_eq!(place.runner_found(), Found::Above);
        assert_eq!(place.package, Some(root.join("fixtures/hello")));
        assert_eq!(place.project(), root);

        let at_root = Place::around(root.to_path_buf(), None);
        assert_eq!(at_root.runner, Some(PathBuf::from("runner.toml")));
        assert_eq!(at_root.runner_found(), Found::Here);
        assert_eq!(at_root.project(), root);
        let in_package = Place::around(root.join("fixtures/hello"), None);
        assert_eq!(in_package.package, Some(PathBuf::from(".")));

        let plain = Place::around(root.join("fixtures/s-nim/large"), None);
        assert_eq!(plain.runner, Some(root.join("runner.toml")));
        assert_eq!(plain.package, None);
        assert_eq!(
            problem_folder(&root.join("fixtures"), &root.join("fixtures/s-nim/large")),
            Some("s-nim".into())
        );
        assert_eq!(
            problem_folder(&root.join("fixtures"), &root.join("fixtures")),
            None
        );
        assert_eq!(problem_folder(&root.join("fixtures"), root), None);
    }

    #[test]
    fn a_named_settings_file_wins_and_the_project_is_then_here() {
        let dir = tree(&["runner.toml", "sub/other.toml"]);
        let sub = dir.path().join("sub");
        let place = Place::around(sub.clone(), Some(Path::new("other.toml")));
        assert_eq!(place.runner, Some(PathBuf::from("other.toml")));
        assert!(place.runner_given);
        assert_eq!(place.runner_found(), Found::Named);
        assert_eq!(place.project(), sub);
    }

    #[test]
    fn finding_nothing_says_what_was_looked_for_and_where() {
        let dir = tree(&["notes.txt"]);
        let place = Place::around(dir.path().to_path_buf(), None);
        assert_eq!(
            (place.runner.as_ref(), place.package.as_ref()),
            (None, None)
        );
        let message = place.nothing_here("problem").to_string();
        assert!(
            message.starts_with("no problem here: looked for `problem.yaml`"),
            "{message}"
        );
        assert!(
            message.contains(&dir.path().display().to_string()),
            "{message}"
        );
    }
}
