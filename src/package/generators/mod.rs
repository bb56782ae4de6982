//! `generators/generators.yaml` as data: the test data a package describes rather than commits,
//! read into a typed [`Plan`] (every group with its `test_group.yaml`, every case with where its
//! files come from: a generator command and its seed, a copied file, inline text, links between
//! its files, an included case of another group), with located errors (`generators.yaml:7:3:`)
//! and did-you-mean for unknown keys. It follows BAPCtools' `bt generate`, the format's reference
//! tool, wherever its documentation and the package-format draft disagree (names, numbering,
//! seeds), so that one `generators.yaml` makes the same files in both tools. Reads and runs
//! nothing: `generation` builds the data from a plan.

mod add_case;
mod count;
mod include;
mod keys;
mod parse;
mod plan;
mod reader;
mod rule;
mod text;

use std::path::{Path, PathBuf};

use super::yaml::Diagnostic;
pub use add_case::{add_secret_case, AddError};
pub use plan::{
    seed_count, Case, Command, Context, GroupYaml, Match, NamedProgram, Plan, Rule, Solution,
    Source, FILE, FOLDER, GENERATORS_YAML_BYTES, IMAGE_EXTENSIONS, TEXT_EXTENSIONS,
};

/// Reads `generators.yaml` (`file` is how messages name it) of a package described by
/// `context`. Errors come all together, each located.
pub fn parse(file: &Path, text: &str, context: &Context) -> Result<Plan, Vec<Diagnostic>> {
    let root = super::yaml::parse(file, text).map_err(|e| vec![e])?;
    parse::plan(file, text, root.as_ref(), context)
}

/// The path of `generators.yaml` in a package folder.
pub fn file_of(package: &Path) -> PathBuf {
    package.join(FOLDER).join(FILE)
}

#[cfg(test)]
#[path = "generators_tests.rs"]
mod tests;
