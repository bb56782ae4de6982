//! Packages as problems of `check` and `list`: a package in the fixtures root (or the root
//! itself) is judged with its own limits (its passes too, for a multi-pass package) and output
//! validator, laid over the settings runner.toml gives it; command-line flags still win. Its output validator (or the default validator with
//! the cases' flags) becomes the checker, or the interactor of an interactive package, built into
//! the cache as `verify` builds it.

use std::time::Duration;

use anyhow::{bail, Result};

use super::build::build_now;
use super::checkers::{checker_for, interactor_for, Unjudgeable};
use super::model::{absolute, Judging, Problem};
use crate::config::{Config, Overrides, Settings};
use crate::package::{find, load_package, OutputValidator};

/// Sets the settings of every package of the fixtures root.
pub fn add_package_settings(config: &mut Config, overrides: &Overrides) -> Result<()> {
    // A root without packages is the usual folder of cases.
    let Ok(found) = find::find(&config.fixtures) else {
        return Ok(());
    };
    for folder in &found.packages {
        let package = load_package(&absolute(folder))?;
        let name = package.name.clone();
        let settings = settings_of(
            Problem::from_package(package),
            config.settings(&name),
            overrides,
        )?;
        config.set_settings(&name, settings);
    }
    Ok(())
}

fn settings_of(problem: Problem, base: &Settings, overrides: &Overrides) -> Result<Settings> {
    let mut settings = base.clone();
    let limits = &problem.limits;
    if let (None, Some(seconds)) = (overrides.time_limit_ms, limits.time_limit) {
        settings.time_limit = Duration::from_secs_f64(seconds);
    }
    if let (None, Some(mib)) = (overrides.memory_limit_mb, limits.memory_mib) {
        settings.memory_limit_mb = mib;
    }
    if let (None, Some(mib)) = (overrides.output_limit_mb, limits.output_mib) {
        settings.output_limit_mb = mib;
    }
    settings.validation_passes = problem.passes;
    let validators = match &problem.judging {
        Judging::Package {
            validator: OutputValidator::Custom(programs),
            ..
        } => programs.as_slice(),
        _ => &[],
    };
    let builds = build_now(&problem, validators);
    let fail = |why: Unjudgeable| anyhow::anyhow!("package {}: {why}", problem.name);
    if overrides.interactor.is_none() {
        if let Some(interactor) = interactor_for(&problem, &builds).map_err(fail)? {
            settings.interactor = Some(interactor);
        }
    }
    if overrides.checker.is_some() || settings.interactor.is_some() {
        return Ok(settings);
    }
    // `check` judges a problem with one checker: every case must agree on the flags.
    let mut chosen: Option<(&str, _)> = None;
    for case in &problem.cases {
        let checker = checker_for(&problem, &builds, case).map_err(fail)?;
        match &chosen {
            None => chosen = Some((&case.id, checker)),
            Some((first, same)) if *same != checker => bail!(
                "package {}: its cases are judged differently ({first}: {same}; {}: {checker}); \
                 `grundy check` judges a problem with one checker: verify it with `grundy verify`",
                problem.name,
                case.id
            ),
            Some(_) => {}
        }
    }
    if let Some((_, checker)) = chosen {
        settings.checker = checker;
    }
    Ok(settings)
}
