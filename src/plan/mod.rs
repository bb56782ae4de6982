//! The plan of a command that judges the fixtures root's cases (`check`; `list` shows it): each
//! problem one [`Problem`] whatever it is (a built-in problem with its solver in-process, a
//! fixtures folder judged by a program, both judged by their settings; a Kattis package read
//! once), with the settings its cases are
//! judged under and the judge of each case ([`Planned`]); the subject judged on them; the cases,
//! in order ([`Plan`]).
//!
//! Made in two steps. [`planned`] gives each problem the settings its cases are judged under by
//! the rule every command follows ([`judged_under`]: what a package says over runner.toml's,
//! flags still winning) and a package its default output validator's checkers, building and
//! running nothing, so `list` shows it whatever the packages' programs are.
//! [`prepare`] is the stage `check` runs before judging: it builds the output validators of the
//! packages it is to judge (into the cache, as `verify` builds them) and gives each case its
//! checker, one per group's flags as `verify` judges them, or the package's interactor. A package
//! that cannot be read or judged fails alone: its cases are reported with the reason
//! ([`Unpreparable`]), and the others are judged.

mod prepare;
pub mod time_limits;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::build::Builds;
use crate::checking::Checker;
use crate::config::{Config, Overrides, Settings};
use crate::discovery::Case;
use crate::model::{absolute, builtin, judged_under, Fixed, InputValidator, Problem, TimeLimit};
use crate::package::limits::TimeLimitError;
use crate::package::yaml::Diagnostic;
use crate::root_packages::RootPackages;
use crate::running::Subject;
use crate::validation::checkers::{checker_for, Unjudgeable};

pub use prepare::prepare;
pub use time_limits::{known, timed};

/// What a judging command judges: the problems of its cases, the subject, the cases in order.
pub struct Plan {
    /// The problems of the cases, by name.
    pub problems: BTreeMap<String, Planned>,
    pub subject: Subject,
    pub cases: Vec<Case>,
}

/// One problem as its cases are judged: made by [`planned`], its judges and time limit
/// completed by [`prepare`], which alone changes it.
pub struct Planned {
    /// The problem, one type whatever it is, as `verify` would judge it: a package read once
    /// (shared with [`RootPackages`]), or a built-in problem or fixtures folder judged by its
    /// settings as [`crate::model::builtin`] makes one (`Judging::Settings`: their checker and
    /// interactor), with the cases the walk found in it. A package that cannot be read is one
    /// judged by its settings too, whose `judges` say why its cases fail.
    problem: Arc<Problem>,
    /// What its cases are judged under, by the one rule ([`judged_under`]): its limits, its
    /// checker and interactor (every case's, unless `judges` says otherwise), and the variables
    /// judged programs get. The only copy: the problem holds none.
    settings: Settings,
    judges: Judges,
    /// Its time limit and how it came about (the settings hold it); `None` while a package's
    /// accepted submissions are still to be timed ([`prepare`] times them).
    time_limit: Option<TimeLimit>,
}

/// Which checker judges each case of a problem.
pub enum Judges {
    /// The settings' checker (or interactor) judges every case.
    Settings,
    /// A package judged by the default output validator or its own: each case (by its name
    /// below the package) by the checker its group's flags make.
    PerCase(BTreeMap<String, Arc<Checker>>),
    /// Its cases cannot be judged: each fails with why.
    Broken(Unpreparable),
}

/// Why `check` cannot judge a package's cases: each of them fails with it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unpreparable {
    #[error("{0}")]
    Unreadable(Diagnostic),
    #[error("package {package}: {why}")]
    Unjudgeable { package: String, why: Unjudgeable },
    #[error(
        "package {package}: no time limit: {why}; set limits.time_limit in its problem.yaml, or \
         judge with --time-limit MS"
    )]
    Untimed {
        package: String,
        why: TimeLimitError,
    },
}

impl Planned {
    pub fn problem(&self) -> &Arc<Problem> {
        &self.problem
    }

    /// What its cases are judged under.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn judges(&self) -> &Judges {
        &self.judges
    }

    /// Its time limit and how it came about; `None` while it is still to be timed.
    pub fn time_limit(&self) -> Option<&TimeLimit> {
        self.time_limit.as_ref()
    }

    /// The checker of `case`, or why it cannot be judged.
    pub fn checker(&self, case: &Case) -> Result<&Checker, &Unpreparable> {
        match &self.judges {
            Judges::Settings => Ok(&self.settings.checker),
            Judges::PerCase(checkers) => match checkers.get(case.name()) {
                Some(checker) => Ok(checker),
                // A case the package was not read with (made since): its first case's judge.
                None => Ok(checkers
                    .values()
                    .next()
                    .map_or(&self.settings.checker, |c| c)),
            },
            Judges::Broken(why) => Err(why),
        }
    }
}

/// The problems named in `names` as their `cases` (the walk's) are judged before anything is
/// built: the settings of each by the one rule ([`judged_under`]: runner.toml's, with a
/// package's own limits and passes laid over them, memory and output those `verify` judges with:
/// the package's, or the format's defaults where it leaves them to the judge; flags still win),
/// its time limit as far as it is known and, where no program is needed, its checker from the
/// format's default output validator with each case's flags. A package that cannot be read is
/// broken.
pub fn planned<'a>(
    config: &Config,
    packages: &RootPackages,
    overrides: &Overrides,
    names: impl IntoIterator<Item = &'a str>,
    cases: &[Case],
) -> BTreeMap<String, Planned> {
    // Each problem's cases, grouped once: the walk's are many, the problems few.
    let mut by_problem: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        by_problem.entry(&case.problem).or_default().push(case);
    }
    let mut planned = BTreeMap::new();
    for name in names {
        let cases = by_problem.get(name).map_or(&[][..], Vec::as_slice);
        let base = config.settings(name);
        let source = match overrides.time_limit {
            Some(_) => Fixed::Flag,
            None => Fixed::Runner,
        };
        let (problem, judges, time_limit) = match packages.get(name) {
            None => (
                by_settings(config, name, base, source, cases),
                Judges::Settings,
                Some(TimeLimit::fixed(base.limits.time, source)),
            ),
            Some(Err(why)) => (
                by_settings(config, name, base, source, cases),
                Judges::Broken(Unpreparable::Unreadable(why.clone())),
                Some(TimeLimit::fixed(base.limits.time, source)),
            ),
            Some(Ok(problem)) => {
                let time_limit = known(problem, overrides.time_limit);
                // A package's own output validator is known once built, by `prepare`.
                let built_in = crate::root_packages::custom_validator(problem).is_none();
                let untimed = time_limit
                    .as_ref()
                    .and_then(|known| known.limit.clone().err());
                let by_defaults = overrides.checker.is_none() && built_in;
                let judges = match (
                    untimed,
                    by_defaults.then(|| per_case(problem, &Builds::default())),
                ) {
                    (Some(why), _) => Judges::Broken(untimed_package(problem, why)),
                    (None, Some(Some(Ok(judges)))) => judges,
                    (None, Some(Some(Err(why)))) => Judges::Broken(unjudgeable(problem, why)),
                    (None, Some(None) | None) => Judges::Settings,
                };
                (Arc::clone(problem), judges, time_limit)
            }
        };
        let time = time_limit
            .as_ref()
            .and_then(|known| known.limit.clone().ok());
        let plan = Planned {
            settings: judged_under(&problem, base, overrides, time),
            problem,
            judges,
            time_limit,
        };
        planned.insert(name.to_string(), plan);
    }
    planned
}

/// The problem `name` judged by its `settings`, its time limit fixed by `source`: a built-in
/// problem (its own input validator), or a fixtures folder or a package that cannot be read
/// (none), with its `cases`. Every case the walk found is one of its cases; which
/// of them a subject is judged on is `check`'s to say ([`crate::discovery::Judged`]).
fn by_settings(
    config: &Config,
    name: &str,
    settings: &Settings,
    source: Fixed,
    cases: &[&Case],
) -> Arc<Problem> {
    let validators = grundy_problems::find(name).map(InputValidator::BuiltIn);
    Arc::new(builtin::judged_by_settings(
        name,
        absolute(&config.fixtures).join(name),
        settings,
        source,
        cases.iter().copied(),
        validators.into_iter().collect(),
        true,
    ))
}

/// Why `problem`'s cases cannot be judged, as each of them fails.
fn unjudgeable(problem: &Problem, why: Unjudgeable) -> Unpreparable {
    Unpreparable::Unjudgeable {
        package: problem.name.clone(),
        why,
    }
}

/// Why `problem`'s cases cannot be judged without a time limit.
fn untimed_package(problem: &Problem, why: TimeLimitError) -> Unpreparable {
    Unpreparable::Untimed {
        package: problem.name.clone(),
        why,
    }
}

/// Each case's checker by its name, the equal ones shared, as [`checker_for`] gives them with
/// `builds` (a package's own validator must be among them); `None` without cases.
fn per_case(problem: &Problem, builds: &Builds) -> Option<Result<Judges, Unjudgeable>> {
    let mut checkers = BTreeMap::new();
    let mut last: Option<Arc<Checker>> = None;
    for case in &problem.cases {
        let checker = match checker_for(problem, builds, case) {
            Ok(checker) => checker,
            Err(why) => return Some(Err(why)),
        };
        let shared = match last.take() {
            Some(same) if *same == checker => same,
            _ => Arc::new(checker),
        };
        checkers.insert(case.id().to_string(), Arc::clone(&shared));
        last = Some(shared);
    }
    (!checkers.is_empty()).then_some(Ok(Judges::PerCase(checkers)))
}

/// What judges a package's outputs, for `list`: its output validator by name (`kattis:NAME`),
/// the default one with its cases' flags (or `flags per group` when its groups give different
/// ones), or why the package cannot be read; None for a problem judged as its settings say.
pub fn judge_of(planned: &Planned) -> Option<String> {
    if let Judges::Broken(Unpreparable::Unreadable(_)) = &planned.judges {
        return Some("(unreadable)".into());
    }
    match crate::root_packages::custom_validator(&planned.problem) {
        Some(program) => Some(format!("kattis:{program}")),
        None => match &planned.judges {
            Judges::PerCase(checkers) => {
                let mut all = checkers.values();
                let first = all.next()?;
                Some(match all.any(|other| other != first) {
                    true => "kattis-default, flags per group".into(),
                    false => first.to_string(),
                })
            }
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Judging, TestCase};
    use crate::package::test_support::tree;
    use std::path::Path;
    use std::time::Duration;

    /// A 2023-07 package judged by the default validator: `secret/a` without flags, `secret/b`
    /// with a float tolerance.
    fn mixed() -> (tempfile::TempDir, Problem) {
        let dir = tree(&[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: M\n",
            ),
            ("data/secret/a/1.in", "1\n"),
            ("data/secret/a/1.ans", "1\n"),
            ("data/secret/a/2.in", "2\n"),
            ("data/secret/a/2.ans", "2\n"),
            (
                "data/secret/b/test_group.yaml",
                "output_validator_args: [float_tolerance, 1e-3]\n",
            ),
            ("data/secret/b/1.in", "3\n"),
            ("data/secret/b/1.ans", "3\n"),
        ]);
        let package = crate::package::read_package(dir.path()).unwrap();
        (dir, Problem::from_package(package))
    }

    #[test]
    fn a_package_case_is_the_case_check_walks_and_verify_judges() {
        let (dir, problem) = mixed();
        let name = crate::package::find::name_of(dir.path());
        let case = &problem.cases[0];
        assert_eq!(case.id(), "secret/a/1");
        assert_eq!(case.case.id, format!("{name}/secret/a/1"));
        assert_eq!(case.case.problem, name);
        assert_eq!(case.case.input.relative(), Path::new("data/secret/a/1.in"));
        let answer = case.case.expected.as_ref().map(|answer| answer.relative());
        assert_eq!(answer, Some(Path::new("data/secret/a/1.ans")));
        assert_eq!(case.case.expects, crate::discovery::Expects::Output);
    }

    #[test]
    fn each_case_of_a_package_gets_its_groups_checker_and_equal_ones_are_shared() {
        let (_dir, problem) = mixed();
        let Some(Ok(Judges::PerCase(checkers))) = per_case(&problem, &Builds::default()) else {
            panic!("a package judged by the default validator has a checker per case");
        };
        let names: Vec<&str> = checkers.keys().map(String::as_str).collect();
        assert_eq!(names, ["secret/a/1", "secret/a/2", "secret/b/1"]);
        assert!(Arc::ptr_eq(
            &checkers["secret/a/1"],
            &checkers["secret/a/2"]
        ));
        assert_ne!(checkers["secret/a/1"], checkers["secret/b/1"]);
        assert_eq!(
            checkers["secret/b/1"].to_string(),
            "kattis-default float_tolerance 0.001"
        );
    }

    #[test]
    fn a_built_in_problem_and_a_fixtures_folder_are_problems_judged_by_their_settings() {
        let root = tree(&[
            ("runner.toml", "time_limit_ms = 700\n"),
            ("fixtures/nim/a.in", "1\n1\n"),
            ("fixtures/nim/a.out", "First\n"),
            ("fixtures/nim/invalid/x.in", "x\n"),
            ("fixtures/nim/invalid/x.err", "bad\n"),
            ("fixtures/hello/1.in", "\n"),
            ("fixtures/hello/1.out", "Hello\n"),
        ]);
        let config = Config::load(
            Some(&root.path().join("runner.toml")),
            crate::locate::Found::Named,
            &Overrides::default(),
            |id, _| grundy_problems::find(id).is_some(),
        )
        .unwrap();
        let packages = RootPackages::read(&config.fixtures);
        let found = crate::discovery::discover(&config.fixtures, |_| true).unwrap();
        let planned = planned(
            &config,
            &packages,
            &Overrides::default(),
            ["hello", "nim"],
            &found.cases,
        );
        for (name, cases, invalid, validators) in [("hello", ["1"], 0, 0), ("nim", ["a"], 1, 1)] {
            let plan = &planned[name];
            let problem = &plan.problem;
            let Judging::Settings(judge) = &problem.judging else {
                panic!("{name} is judged by its settings");
            };
            assert_eq!(judge.checker, plan.settings.checker);
            assert_eq!(judge.interactor, plan.settings.interactor);
            assert!(matches!(plan.judges, Judges::Settings));
            assert_eq!(problem.name, name);
            assert_eq!(problem.limits.time_limit, Some(Duration::from_millis(700)));
            let ids: Vec<&str> = problem.cases.iter().map(TestCase::id).collect();
            assert_eq!(ids, cases);
            assert_eq!(problem.invalid_inputs.len(), invalid);
            assert_eq!(problem.input_validators.len(), validators);
            assert!(problem.submissions.is_empty());
        }
    }
}
