//! What `grundy generate` acts on: each argument a package or contest folder, or a built-in
//! problem's id; without one, the package holding the current folder (found upward, as every
//! command finds it), else the packages of a contest folder here, else the built-in problems of
//! the project around it that have a `generators.yaml`. Finds; generates nothing.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::cli::GenerateArgs;
use crate::commands::setup::load_config;
use crate::generation::fixtures;
use crate::model::absolute;
use crate::package::find;
use crate::package::yaml::Diagnostic;

/// What one run generates.
pub enum Target {
    /// A package folder holding `generators/generators.yaml`.
    Package(PathBuf),
    /// A built-in problem with a `fixtures/<problem>/generators.yaml`, below this fixtures root.
    BuiltIn(PathBuf, &'static grundy_problems::Problem),
}

/// What the arguments name: each a package or contest folder, or a built-in problem's id (when
/// no package folder has that name). Without one: the package holding the current folder, else
/// the packages at the current folder, else, in a project of fixtures, every built-in problem with a `generators.yaml`.
pub fn of(args: &GenerateArgs) -> Result<Vec<Target>> {
    let place = crate::locate::Place::find(args.sources.config.as_deref())?;
    if args.packages.is_empty() {
        // The package holding the current folder (from its `generators/` or `data/secret/`,
        // as every command finds it), else the packages of a contest folder here.
        if let Some(package) = &place.package {
            return Ok(package_targets(vec![package.clone()]));
        }
        return match find::find(&place.here) {
            Ok(found) => Ok(package_targets(found.packages)),
            Err(no_package) => built_in_here(args, &place, no_package),
        };
    }
    let mut targets = vec![];
    for target in &args.packages {
        let id = target.to_str().unwrap_or_default();
        match grundy_problems::find(id) {
            Some(problem) if !target.join("problem.yaml").is_file() => {
                let fixtures = load_config(&args.sources, Default::default())?.fixtures;
                if !fixtures::has_plan(&fixtures, problem) {
                    bail!(
                        "`{}` is not there: nothing says how {id}'s fixtures are made (`grundy \
                         gen` makes one case)",
                        fixtures.join(id).join(fixtures::FILE).display()
                    );
                }
                targets.push(Target::BuiltIn(fixtures, problem));
            }
            None if !target.exists() => {
                return Err(crate::commands::missing::not_there(&target.to_string_lossy()).into())
            }
            _ => {
                let found = find::find(target).map_err(|e| anyhow::anyhow!("{e}"))?;
                targets.extend(package_targets(found.packages));
            }
        }
    }
    Ok(targets)
}

fn package_targets(packages: Vec<PathBuf>) -> Vec<Target> {
    packages
        .into_iter()
        .map(|p| Target::Package(absolute(&p)))
        .collect()
}

/// Every built-in problem with a `generators.yaml` in the project around the current folder;
/// an error saying so when there is none (or no project), naming what was looked for.
fn built_in_here(
    args: &GenerateArgs,
    place: &crate::locate::Place,
    no_package: Diagnostic,
) -> Result<Vec<Target>> {
    let project = place.runner.is_some() || args.sources.fixtures.is_some();
    if !project && !Path::new("fixtures").is_dir() {
        bail!("{no_package}");
    }
    let fixtures = load_config(&args.sources, Default::default())?.fixtures;
    let targets: Vec<Target> = grundy_problems::ALL
        .iter()
        .copied()
        .filter(|problem| fixtures::has_plan(&fixtures, problem))
        .map(|problem| Target::BuiltIn(fixtures.clone(), problem))
        .collect();
    if targets.is_empty() {
        bail!(
            "{no_package}; and no built-in problem of `{}` has a {} (`fixtures/<problem>/{}`)",
            fixtures.display(),
            fixtures::FILE,
            fixtures::FILE
        );
    }
    Ok(targets)
}
