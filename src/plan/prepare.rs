//! The stage `check` runs before judging: the output validators of the packages whose cases it
//! is to judge built (into the cache, as `verify` builds them, only those: the packages'
//! submissions are not judged), and each such package's interactor, or the checker of each of
//! its cases, put in its plan; flags still win. A package that cannot be judged fails alone.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{per_case, unjudgeable, Judges, Planned};
use crate::build::{BuildJobs, Builds};
use crate::config::Overrides;
use crate::root_packages::{custom_validator, RootPackages};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::validation::checkers::interactor_for;

/// Builds the output validators of the packages among `planned` on `pool` and puts each
/// package's interactor or checkers in its plan. Stops only for Ctrl-C or the host.
pub fn prepare(
    planned: &mut BTreeMap<String, Planned>,
    packages: &RootPackages,
    overrides: &Overrides,
    pool: &Pool,
) -> Result<(), Stop> {
    let problems: Vec<_> = planned
        .keys()
        .filter_map(|name| packages.get(name)?.ok())
        .collect();
    let needing = problems.iter().filter(|p| custom_validator(p).is_some());
    let jobs = Arc::new(BuildJobs::validators(needing.copied()));
    let builds = match jobs.len() {
        0 => Builds::default(),
        count => jobs.collect(pool.run(Arc::clone(&jobs), count, "building")?),
    };
    for problem in problems {
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
    Ok(())
}
