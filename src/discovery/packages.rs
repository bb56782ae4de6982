//! Kattis problem packages among the fixtures: a folder holding `problem.yaml` (the fixtures root
//! itself, or a folder in it) is a problem named by its folder, whatever the name (`HelloWorld`,
//! `a_plus_b`). Its cases are the package's judged ones, sample then secret (see
//! [`crate::package::testdata`]), each with its `.ans` as the expected file; a sample's `.out` and
//! `.interaction` are illustrations and are not read. Finding the cases takes only the format
//! version of `problem.yaml`: a package wrong in another key (an absurd limit) still has its
//! cases, and `check` fails each of them with why (see `root_packages`); one whose
//! `problem.yaml` or `data/` cannot be read is a layout error, with its file, line and column.
//!
//! The walk reads no package itself: it asks [`PackageCases`] for a package's cases, which the
//! reader of the fixtures root's packages (`root_packages`) answers from the package it read
//! once; [`ReadEach`] reads each package asked for, for a command that reads no packages
//! otherwise.

use std::path::Path;

use super::case::Case;
use crate::package::yaml::Diagnostic;
use crate::package::{read_package, testdata};

/// Whether `folder` is a package.
pub fn is_package(folder: &Path) -> bool {
    folder.join("problem.yaml").is_file()
}

/// Where the walk of a fixtures root takes a package's cases from.
pub trait PackageCases: Sync {
    /// The judged cases of the package `name` in `folder`, or why its `problem.yaml` or `data/`
    /// cannot be read (a layout error).
    fn cases(&self, name: &str, folder: &Path) -> Result<Vec<Case>, Diagnostic>;
}

/// Each package's cases read when the walk asks for them.
pub struct ReadEach;

impl PackageCases for ReadEach {
    fn cases(&self, name: &str, folder: &Path) -> Result<Vec<Case>, Diagnostic> {
        match read_package(folder) {
            Ok(package) => Ok(cases_of(name, &package.data)),
            Err(unreadable) => Ok(cases_of(name, &unreadable.data?)),
        }
    }
}

/// The judged cases of the package `name` whose data is `data`, as the walk gives them.
pub fn cases_of(name: &str, data: &testdata::TestData) -> Vec<Case> {
    let cases = data.judged().map(|case| {
        Case::of_package(
            format!("{name}/{}", case.id),
            name.to_string(),
            case.input.clone(),
            case.answer.clone(),
        )
    });
    cases.collect()
}
