//! `grundy mutants [PKG|PROBLEM]`: the front-end of [`crate::mutants`]: which package (the one
//! given, a built-in problem as `verify` judges it, else the one around the current folder) and
//! which accepted submission (`--submission`, else the first accepted one by name), the
//! package's time limit by the one rule
//! ([`crate::plan::time_limits`]), the mutants made (all, or `--max` of them by `--seed`), each
//! copied, built and judged, and each reported as it is known. How it ended: passed when it ran
//! (a survivor is a finding about the data, not a failure), incomplete when a mutant could not
//! be judged, cancelled after Ctrl-C.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{anyhow, Context};

use crate::cli::{MutantsArgs, Sources};
use crate::commands::error::CommandError;
use crate::config::{Isolate, Overrides};
use crate::locate::Place;
use crate::model::Problem;
use crate::mutants::copies::Copies;
use crate::mutants::judge::{judge, Fate};
use crate::mutants::Mutant;
use crate::reporting::mutated::{MutantRow, MutationRun, Status};
use crate::reporting::{Ended, Finished, RunKind, Summary};
use crate::stages::Pool;
use crate::verification::time_limit::computes_the_limit;

pub fn run(args: MutantsArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    let target = match &args.package {
        Some(package) => package.clone(),
        None => super::verify::default_package()?,
    };
    let mut problem = read(&target, &args.sources)?;
    if let Some(selector) = &args.submission {
        crate::verification::select::submissions(
            std::slice::from_mut(&mut problem),
            std::slice::from_ref(selector),
        )?;
    }
    let mut accepted: Vec<_> = problem
        .submissions
        .iter()
        .filter(|s| computes_the_limit(s))
        .collect();
    accepted.sort_by(|a, b| a.id.cmp(&b.id));
    let Some(original) = accepted.first().map(|s| (*s).clone()) else {
        return Err(anyhow!(
            "{}: no accepted submission to mutate{}; mutants are made of a submission that \
             must be accepted on every case",
            crate::model::shown(&problem.root),
            match &args.submission {
                Some(selector) => format!(" among those `{selector}` names"),
                None => String::new(),
            }
        )
        .into());
    };
    let all = crate::mutants::of_program(&original.program)
        .with_context(|| format!("cannot make the mutants of {}", original.id))?;
    let made = all.len();
    let mutants = match args.max {
        Some(max) => crate::mutants::sample(all, max as usize, args.seed),
        None => all,
    };
    let isolate = args.isolate.as_deref();
    super::setup::containment_check(isolate.map_or(Isolate::default(), Isolate::from_flag))?;
    let (mut dispatch, stages) = super::setup::dispatcher(
        args.format,
        None,
        args.html.destination(),
        color,
        Arc::clone(&cancel),
    );
    let jobs = crate::config::worker_count(args.jobs);
    let pool = Pool::new(dispatch.pool_options(jobs), stages);
    let run = MutationRun {
        problem: problem.name.clone(),
        submission: original.id.clone(),
        cases: problem.cases.iter().map(|c| c.id.clone()).collect(),
        made,
        judged: mutants.len(),
        seed: args.max.map(|_| args.seed),
    };
    dispatch.run_started(&RunKind::Mutants(run.clone()));
    let limit = match crate::plan::time_limits::known(&problem, None) {
        Some(known) => known,
        // Timed now, on a reading of its own (timing keeps only the accepted submissions).
        None => match crate::plan::time_limits::timed(vec![read(&target, &args.sources)?], &pool) {
            Ok(mut limits) => limits.remove(0),
            Err(stop) => return Ok(dispatch.finish(Err(stop), Summary::default())?),
        },
    };
    let limit = limit.limit.map_err(|why| {
        anyhow!(
            "{}: no time limit to judge the mutants with: {why}",
            problem.name
        )
    })?;
    let copies = Copies::new(&original)?;
    problem.submissions = mutants
        .iter()
        .map(|mutant| copies.submission(mutant))
        .collect::<Result<_, _>>()?;
    let problem = Arc::new(problem);
    let timeout = problem.limits.timeout(limit);
    let mut unjudged = false;
    let ran = judge(&problem, &pool, timeout, &cancel, |s, fate| {
        let fate = match fate {
            Fate::Stillborn(said) => Fate::Stillborn(copies.unplaced(&mutants[s], &said)),
            fate => fate,
        };
        let row = row(&run, &problem, &mutants[s], fate);
        unjudged |= row.status == Status::Unjudged;
        dispatch.finished(Finished::mutant(&run, &row));
    });
    // The copies go once every mutant is judged.
    drop(copies);
    let ended = dispatch.finish(ran, Summary::default())?;
    Ok(match ended {
        Ended::Passed if unjudged => Ended::Incomplete,
        ended => ended,
    })
}

/// The one package `target` names, or the built-in problem of that id (when no package is
/// there), with its planted submissions, as `verify` reads it.
fn read(target: &std::path::Path, sources: &Sources) -> Result<Problem, CommandError> {
    let id = target
        .to_str()
        .filter(|id| grundy_problems::find(id).is_some());
    if let Some(id) = id.filter(|_| !target.join("problem.yaml").is_file()) {
        let place = Place::find(sources.config.as_deref())?;
        let config = super::setup::load_config(sources, Overrides::default())?;
        let problems = crate::model::builtin::problems(&config, &place.project(), false)?;
        return problems
            .into_iter()
            .find(|problem| problem.name == id)
            .ok_or_else(|| anyhow!("{id}: a test-only problem has no planted submissions").into());
    }
    read_package(target)
}

/// The one package `target` names.
fn read_package(target: &std::path::Path) -> Result<Problem, CommandError> {
    let (mut problems, unreadable) = crate::model::packages(&[target.to_path_buf()]);
    if let Some(why) = unreadable.first() {
        return Err(anyhow!("{why}").into());
    }
    match problems.len() {
        1 => Ok(problems.remove(0)),
        0 => Err(anyhow!(
            "{}: no package here; give a package folder (holding problem.yaml)",
            target.display()
        )
        .into()),
        n => Err(anyhow!(
            "{} holds {n} packages; give one of them (mutants judges one submission of one \
             package)",
            target.display()
        )
        .into()),
    }
}

/// What is reported of `mutant`, judged to `fate`.
fn row(run: &MutationRun, problem: &Problem, mutant: &Mutant, fate: Fate) -> MutantRow {
    let (status, killed_by, why) = match fate {
        Fate::Killed { case, verdict } => (
            Status::Killed,
            Some((problem.cases[case].id.clone(), verdict)),
            None,
        ),
        Fate::Survived => (Status::Survived, None, None),
        Fate::Stillborn(why) => (Status::Stillborn, None, Some(why)),
        Fate::Unjudged(why) => (Status::Unjudged, None, Some(why)),
    };
    MutantRow {
        subject: format!("{} mutant {}", run.submission, mutant.number),
        status,
        file: mutant.file.display().to_string(),
        line: mutant.line,
        diff: mutant.diff(),
        killed_by,
        why,
    }
}
