//! Kattis problem packages among the fixtures: a folder holding `problem.yaml` (the fixtures root
//! itself, or a folder in it) is a problem named by its folder, whatever the name (`HelloWorld`,
//! `a_plus_b`). Its cases are the package's judged ones, sample then secret (see
//! [`crate::package::testdata`]), each with its `.ans` as the expected file; a sample's `.out` and
//! `.interaction` are illustrations and are not read. Finding the cases takes only the format
//! version of `problem.yaml`: a package wrong in another key (an absurd limit) still has its
//! cases, and `check` fails each of them with why (see `root_packages`); one whose
//! `problem.yaml` or `data/` cannot be read is a layout error, with its file, line and column.
//! Its files are read through the package's root only ([`crate::files::beneath`]).

use std::path::Path;

use anyhow::Result;

use super::case::{Case, Fixtures};
use crate::files::beneath::{Scope, Tree};
use crate::package::yaml::Diagnostic;
use crate::package::{metadata, testdata};

/// Whether `folder` is a package.
pub fn is_package(folder: &Path) -> bool {
    folder.join("problem.yaml").is_file()
}

/// Adds the judged cases of the package `name` in `folder` to `fixtures`.
pub fn add_cases(name: &str, folder: &Path, fixtures: &mut Fixtures) -> Result<()> {
    let tree = Tree::open(folder, Scope::Package).map_err(Diagnostic::from)?;
    let mut warnings = vec![];
    let version = metadata::read_version(&tree.join("problem.yaml"))?;
    // The legacy validator flags only go into the cases' settings, which are not read here.
    let data = testdata::read(&tree, version, &[], &mut warnings)?;
    fixtures.cases.extend(data.judged().map(|case| {
        Case::of_package(
            format!("{name}/{}", case.id),
            name.to_string(),
            case.input.clone(),
            case.answer.clone(),
        )
    }));
    Ok(())
}
