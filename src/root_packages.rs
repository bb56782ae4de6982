//! The packages of a fixtures root as problems of `check`, `list` and `validate`: a package in the fixtures root (or the root
//! itself) is judged with its own limits (its passes too, for a multi-pass package) and output
//! validator, laid over the settings runner.toml gives it; command-line flags still win.
//!
//! Reading is pure: [`RootPackages::read`] reads the packages and [`RootPackages::apply`] lays
//! their limits over the settings, building nothing, so `list` (and every command that only
//! loads settings) works whatever the packages' programs are. [`RootPackages::prepare`] is the
//! stage `check` runs before judging: it builds the output validators of the packages it is to
//! judge (into the cache, as `verify` builds them) and makes each the checker, or the
//! interactor of an interactive package. A package that cannot be read or judged fails alone:
//! its cases are reported with the reason, and the others are judged.

use std::collections::BTreeMap;
use std::path::Path;

use crate::build::{BuildJobs, Builds};
use crate::checking::Checker;
use crate::config::{Config, Overrides};
use crate::model::{absolute, Judging, Problem};
use crate::package::yaml::Diagnostic;
use crate::package::{find, load_package, OutputValidator};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::validation::checkers::{checker_for, interactor_for, Unjudgeable};

/// The packages of a fixtures root, read but not built: each package's name with its problem,
/// or why it cannot be read.
#[derive(Default)]
pub struct RootPackages(Vec<(String, Result<Problem, Diagnostic>)>);

/// Why `check` cannot judge a package's cases: each of them fails with it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unpreparable {
    #[error("{0}")]
    Unreadable(Diagnostic),
    #[error("package {package}: {why}")]
    Unjudgeable { package: String, why: Unjudgeable },
    #[error(
        "package {package}: its cases are judged differently ({first_case}: {first}; \
         {other_case}: {other}); `grundy check` judges a problem with one checker: verify it \
         with `grundy verify`"
    )]
    MixedCheckers {
        package: String,
        first_case: String,
        first: Box<Checker>,
        other_case: String,
        other: Box<Checker>,
    },
}

impl RootPackages {
    /// The packages of the fixtures root `fixtures` (none in a root of plain cases).
    pub fn read(fixtures: &Path) -> RootPackages {
        let Ok(found) = find::find(fixtures) else {
            return RootPackages::default();
        };
        let packages = found.packages.iter().map(|folder| {
            let name = find::name_of(folder);
            let problem = load_package(&absolute(folder)).map(Problem::from_package);
            (name, problem)
        });
        RootPackages(packages.collect())
    }

    /// The packages that cannot be read, each with why.
    pub fn unreadable(&self) -> impl Iterator<Item = (&str, &Diagnostic)> {
        let packages = self.0.iter();
        packages.filter_map(|(name, problem)| Some((name.as_str(), problem.as_ref().err()?)))
    }

    /// Whether `name` is one of the packages.
    pub fn contains(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }

    /// The packages named in `names`, each with its problem or why it cannot be read.
    pub fn take(self, names: &[&str]) -> Vec<(String, Result<Problem, Diagnostic>)> {
        let named = self.0.into_iter();
        named.filter(|(n, _)| names.contains(&n.as_str())).collect()
    }

    /// Lays each readable package's limits and passes over its settings in `config` (flags
    /// still win), and, where no program is needed, the format's default output validator as
    /// its checker. Memory and output limits are those `verify` judges with: the package's, or
    /// the format's defaults where it leaves them to the judge.
    pub fn apply(&self, config: &mut Config, overrides: &Overrides) {
        for (name, problem) in &self.0 {
            let Ok(problem) = problem else { continue };
            let mut settings = config.settings(name).clone();
            let limits = &problem.limits;
            if let (None, Some(limit)) = (overrides.time_limit, limits.time_limit) {
                settings.limits.time = limit;
            }
            if overrides.memory_limit_mb.is_none() {
                settings.limits.memory_mib = problem.memory_mib;
            }
            if overrides.output_limit_mb.is_none() {
                settings.limits.output_mib = problem.output_mib;
            }
            settings.limits.passes = problem.passes;
            if overrides.checker.is_none() && custom_validator(problem).is_none() {
                if let Ok(Some(checker)) = one_checker(problem, &Builds::default()) {
                    settings.checker = checker;
                }
            }
            config.set_settings(name, settings);
        }
    }

    /// What judges package `name`'s outputs, for `list`: its output validator by name
    /// (`kattis:NAME`), or why the package cannot be read; None for a package judged as its
    /// settings say.
    pub fn judge_of(&self, name: &str) -> Option<String> {
        let (_, problem) = self.0.iter().find(|(n, _)| n == name)?;
        match problem {
            Err(_) => Some("(unreadable)".into()),
            Ok(problem) => custom_validator(problem).map(|program| format!("kattis:{program}")),
        }
    }

    /// The prepare stage of `check`: builds the output validators of the packages named in
    /// `judged` on `pool` and puts each package's checker or interactor in `config` (flags still
    /// win). Returns the packages that cannot be judged, each with why, or why the stage
    /// stopped (Ctrl-C, the host).
    pub fn prepare(
        &self,
        config: &mut Config,
        overrides: &Overrides,
        judged: &[&str],
        pool: &Pool,
    ) -> Result<BTreeMap<String, Unpreparable>, Stop> {
        let mut broken = BTreeMap::new();
        let mut problems = Vec::new();
        for (name, problem) in self.0.iter().filter(|(n, _)| judged.contains(&n.as_str())) {
            match problem {
                Ok(problem) => problems.push(problem),
                Err(why) => {
                    broken.insert(name.clone(), Unpreparable::Unreadable(why.clone()));
                }
            }
        }
        let needing = problems.iter().filter(|p| custom_validator(p).is_some());
        // Only the output validators are run here: the package's submissions are not judged.
        let jobs = std::sync::Arc::new(BuildJobs::validators(needing.copied()));
        let builds = match jobs.len() {
            0 => Builds::default(),
            count => jobs.collect(pool.run(std::sync::Arc::clone(&jobs), count, "building")?),
        };
        for problem in problems {
            let mut settings = config.settings(&problem.name).clone();
            let fail = |why| Unpreparable::Unjudgeable {
                package: problem.name.clone(),
                why,
            };
            if overrides.interactor.is_none() {
                match interactor_for(problem, &builds) {
                    Ok(Some(interactor)) => settings.interactor = Some(interactor),
                    Ok(None) => {}
                    Err(why) => {
                        broken.insert(problem.name.clone(), fail(why));
                        continue;
                    }
                }
            }
            if overrides.checker.is_none() && settings.interactor.is_none() {
                match one_checker(problem, &builds) {
                    Ok(Some(checker)) => settings.checker = checker,
                    Ok(None) => {}
                    Err(why) => {
                        broken.insert(problem.name.clone(), why);
                        continue;
                    }
                }
            }
            config.set_settings(&problem.name, settings);
        }
        Ok(broken)
    }
}

/// The name of a package's own output validator, if it has one.
fn custom_validator(problem: &Problem) -> Option<&str> {
    match &problem.judging {
        Judging::Package {
            validator: OutputValidator::Custom(programs),
            ..
        } => programs.first().map(|program| program.name.as_str()),
        _ => None,
    }
}

/// The one checker of `problem`'s cases (None without cases): `check` judges a problem with one
/// checker, so every case must agree on the output validator's flags.
fn one_checker(problem: &Problem, builds: &Builds) -> Result<Option<Checker>, Unpreparable> {
    let fail = |why| Unpreparable::Unjudgeable {
        package: problem.name.clone(),
        why,
    };
    let mut chosen: Option<(&str, Checker)> = None;
    for case in &problem.cases {
        let checker = checker_for(problem, builds, case).map_err(fail)?;
        match &chosen {
            None => chosen = Some((&case.id, checker)),
            Some((first, same)) if *same != checker => {
                return Err(Unpreparable::MixedCheckers {
                    package: problem.name.clone(),
                    first_case: first.to_string(),
                    first: Box::new(same.clone()),
                    other_case: case.id.clone(),
                    other: Box::new(checker),
                })
            }
            Some(_) => {}
        }
    }
    Ok(chosen.map(|(_, checker)| checker))
}
