//! The stage `check` runs before judging: the output validators of the packages whose cases it
//! is to judge built (into the cache, as `verify` builds them), and each such package's
//! interactor, or the checker of each of its cases, put in its plan; flags still win. A package
//! that fixes no time limit and whose accepted submissions no earlier command timed has them
//! built and timed, as `verify` times them, for its limit ([`super::timed`]); its other
//! submissions are not judged. A package that cannot be judged fails alone.
//!
//! A built-in problem or fixtures folder (`Judging::Settings`) has nothing to build or time: its
//! settings, runner.toml's with the flags over them, are its checker and interactor, the same
//! for every case, as `verify` judges a built-in problem; its plan's judges stay
//! `Judges::Settings`.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{per_case, timed, unjudgeable, Judges, Planned, Unpreparable};
use crate::build::{BuildJobs, Builds};
use crate::config::{Overrides, Settings};
use crate::model::{Judging, Problem};
use crate::root_packages::custom_validator;
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::validation::checkers::interactor_for;

/// Builds the output validators of the packages among `planned` on `pool`, puts each
/// package's interactor or checkers in its plan, and times the accepted submissions of those
/// whose time limit is still unknown. Stops only for Ctrl-C or the host.
pub fn prepare(
    planned: &mut BTreeMap<String, Planned>,
    overrides: &Overrides,
    pool: &Pool,
) -> Result<(), Stop> {
    // Only a package has programs to build and submissions to time.
    let problems: Vec<Arc<Problem>> = planned
        .values()
        .filter(|plan| matches!(plan.problem.judging, Judging::Package { .. }))
        .map(|plan| Arc::clone(&plan.problem))
        .collect();
    let needing = problems.iter().filter(|p| custom_validator(p).is_some());
    let jobs = Arc::new(BuildJobs::validators(needing.map(|p| &**p)));
    let builds = match jobs.len() {
        0 => Builds::default(),
        count => jobs.collect(pool.run(Arc::clone(&jobs), count, "building")?),
    };
    for problem in &problems {
        let Some(plan) = planned.get_mut(&problem.name) else {
            continue;
        };
        if matches!(plan.judges, Judges::Broken(_)) {
            continue;
        }
        if overrides.interactor.is_none() {
            match interactor_for(problem, &builds) {
                Ok(Some(interactor)) => plan.settings.interactor = Some(interactor),
                Ok(None) => {}
                Err(why) => {
                    plan.judges = Judges::Broken(unjudgeable(problem, why));
                    continue;
                }
            }
        }
        if overrides.checker.is_none() && plan.settings.interactor.is_none() {
            match per_case(problem, &builds) {
                Some(Ok(judges)) => plan.judges = judges,
                Some(Err(why)) => plan.judges = Judges::Broken(unjudgeable(problem, why)),
                None => {}
            }
        }
    }
    // Timing keeps only a problem's accepted submissions: it times a copy, under the settings
    // its cases are judged under.
    let (problems, settings): (Vec<Problem>, Vec<Settings>) = planned
        .values()
        .filter(|plan| plan.time_limit.is_none() && !matches!(plan.judges, Judges::Broken(_)))
        .filter(|plan| matches!(plan.problem.judging, Judging::Package { .. }))
        .map(|plan| (Problem::clone(&plan.problem), plan.settings.clone()))
        .unzip();
    if problems.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
    for (name, limit) in names.iter().zip(timed(problems, &settings, pool)?) {
        let Some(plan) = planned.get_mut(name) else {
            continue;
        };
        match &limit.limit {
            Ok(time) => plan.settings.limits.time = *time,
            Err(why) => {
                plan.judges = Judges::Broken(Unpreparable::Untimed {
                    package: name.clone(),
                    why: why.clone(),
                });
            }
        }
        plan.time_limit = Some(limit);
    }
    Ok(())
}
