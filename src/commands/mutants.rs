//! `grundy mutants [PKG|PROBLEM]`: the front-end of [`crate::mutants`]: which package (the one
//! given, a built-in problem as `verify` judges it, else the one around the current folder) and
//! which accepted submission (`--submission`, else the first accepted one by name), the
//! package's time limit by the one rule
//! ([`crate::plan::time_limits`]), the mutants made (all, or `--max` of them by `--seed`), each
//! copied, built and judged; each survivor searched for an input that tells it apart
//! (`--budget`, `--generator`) and, under `--add`, that input written as a case; every mutant
//! reported once it is known (a survivor once searched). How it ended: passed when it ran (a
//! survivor is a finding about the data, not a failure), incomplete when a mutant could not be
//! judged, cancelled after Ctrl-C.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{anyhow, Context};

use super::setup::load_config;
use crate::cli::{MutantsArgs, Sources};
use crate::commands::error::CommandError;
use crate::config::Isolate;
use crate::config::Overrides;
use crate::locate::Place;
use crate::model::{judged_under, Problem};
use crate::mutants::copies::Copies;
use crate::mutants::judge::{judge, Fate};
use crate::mutants::search::{builtin, package, Searched, Source};
use crate::mutants::Mutant;
use crate::package::submissions::Submission;
use crate::reporting::mutated::{Distinguished, MutantRow, MutationRun, Status, Why};
use crate::reporting::{Ended, Finished, RunKind, Summary};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::verification::judge::Prepared;
use crate::verification::time_limit::computes_the_limit;

pub fn run(args: MutantsArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    let target = target(&args)?;
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
    // What its cases are judged under, by the rule every command follows.
    let config = load_config(&args.sources, Overrides::default())?;
    let base = config.settings(&problem.name);
    let settings = judged_under(&problem, base, &Overrides::default(), None);
    let isolate = args.isolate.as_deref();
    super::setup::containment_check(isolate.map_or(Isolate::default(), Isolate::from_flag))?;
    let source = match &target {
        Target::Package(root) => package::Source::open(root, args.generator.as_deref())?
            .map(|s| Source::Package(Box::new(s))),
        Target::BuiltIn(built_in) => Ok(Source::BuiltIn(Box::new(builtin::Source::new(
            built_in, config,
        )))),
    };
    let (mut dispatch, stages) = super::setup::dispatcher(
        args.format,
        None,
        args.html.destination(),
        color,
        Arc::clone(&cancel),
    );
    let jobs = crate::config::worker_count(args.jobs);
    let pool = Pool::new(dispatch.pool_options(jobs), stages);
    let budget = usize::try_from(args.budget).unwrap_or(usize::MAX);
    let run = MutationRun {
        problem: problem.name.clone(),
        submission: original.id.clone(),
        cases: problem.cases.iter().map(|c| c.id().to_string()).collect(),
        made,
        judged: mutants.len(),
        seed: args.max.map(|_| args.seed),
        search: source.as_ref().map(|_| budget).map_err(|why| *why),
    };
    dispatch.run_started(&RunKind::Mutants(run.clone()));
    let limit = match crate::plan::time_limits::known(&problem, None) {
        Some(known) => known,
        // Timed now, on a reading of its own (timing keeps only the accepted submissions).
        None => match crate::plan::time_limits::timed(
            vec![read(&target, &args.sources)?],
            std::slice::from_ref(&settings),
            &pool,
        ) {
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
    let mut rows = vec![];
    let judged = judge(&problem, settings, &pool, timeout, &cancel, |s, fate| {
        let fate = match fate {
            Fate::Stillborn(said) => Fate::Stillborn(copies.unplaced(&mutants[s], &said)),
            fate => fate,
        };
        rows.push(row(&run, &problem, &mutants[s], fate));
    });
    // Survivors are reported once searched: what the search finds is part of their row.
    let ran = match (judged, source) {
        (Ok(prepared), Ok(source)) if rows.iter().any(|r| r.status == Status::Survived) => {
            let searching = Searching {
                accepted: &original,
                prepared: &prepared,
                pool: &pool,
                add: args.add,
                cancel: &cancel,
            };
            searching.run(source, &mutants, &mut rows, timeout, (budget, args.seed))
        }
        (judged, _) => judged.map(drop),
    };
    // The copies go once every mutant is judged.
    drop(copies);
    let mut unjudged = false;
    for row in &rows {
        unjudged |= row.status == Status::Unjudged;
        dispatch.finished(Finished::mutant(&run, row));
    }
    let ended = dispatch.finish(ran, Summary::default())?;
    Ok(match ended {
        Ended::Passed if unjudged => Ended::Incomplete,
        ended => ended,
    })
}

/// What the search for the survivors' inputs runs with.
struct Searching<'a> {
    accepted: &'a Submission,
    prepared: &'a Prepared,
    pool: &'a Pool,
    add: bool,
    cancel: &'a AtomicBool,
}

impl Searching<'_> {
    /// Searches an input for each survivor among `rows` (on `budget` inputs of generator seeds
    /// from `seed`), each found one written as a case under `--add`; a survivor none tells
    /// apart is likely equivalent.
    fn run(
        &self,
        source: Source,
        mutants: &[Mutant],
        rows: &mut [MutantRow],
        timeout: std::time::Duration,
        (budget, seed): (usize, u64),
    ) -> Result<(), Stop> {
        let settings = self.prepared.settings(timeout);
        let search = source.ready(self.accepted, self.pool, settings, (budget, seed))?;
        for (s, row) in rows.iter_mut().enumerate() {
            if row.status != Status::Survived {
                continue;
            }
            match search.survivor(self.prepared, s, self.pool, self.cancel)? {
                Searched::Found { command, found } => {
                    let added = match self.add {
                        true => {
                            Some(search.add(mutants[s].number, (&command, &found), self.pool)?)
                        }
                        false => None,
                    };
                    row.found = Some(Distinguished { command, added });
                }
                Searched::Equivalent => row.status = Status::Equivalent,
                Searched::Broken(why) => row.why = Some(Why::SearchBroken(Arc::new(why))),
            }
        }
        Ok(())
    }
}

/// What `mutants` acts on: a package folder, or a built-in problem (by its id) of the project
/// around the current folder.
enum Target {
    Package(PathBuf),
    BuiltIn(&'static grundy_problems::Problem),
}

/// The package `PKG` names, or the built-in problem, or the package around the current folder.
fn target(args: &MutantsArgs) -> Result<Target, CommandError> {
    let Some(given) = &args.package else {
        return Ok(Target::Package(super::verify::default_package()?));
    };
    let built_in = grundy_problems::ALL.iter().find(|p| {
        !p.id.starts_with("test-")
            && given.as_os_str() == p.id
            && !given.join("problem.yaml").is_file()
    });
    Ok(match built_in {
        Some(problem) if args.generator.is_some() => {
            return Err(anyhow!(
                "--generator names a package's generator, and `{}` is a built-in problem, whose \
                 inputs come from its own generator; drop --generator, or give a package folder",
                problem.id
            )
            .into())
        }
        Some(problem) => Target::BuiltIn(problem),
        None => Target::Package(given.clone()),
    })
}

/// The problem `target` names, as `verify` reads it (a built-in problem with its planted
/// submissions, its fixtures its cases).
fn read(target: &Target, sources: &Sources) -> Result<Problem, CommandError> {
    let built_in = match target {
        Target::Package(root) => return read_package(root),
        Target::BuiltIn(built_in) => built_in,
    };
    let place = Place::find(sources.config.as_deref())?;
    let config = load_config(sources, Overrides::default())?;
    let problems = crate::model::builtin::problems(&config, &place.project(), false)?;
    let found = problems.into_iter().find(|p| p.name == built_in.id);
    found.ok_or_else(|| {
        anyhow!(
            "{}: not a problem of the fixtures root {}",
            built_in.id,
            config.fixtures.display()
        )
        .into()
    })
}

/// The one package `target` names.
fn read_package(target: &std::path::Path) -> Result<Problem, CommandError> {
    let crate::model::Packages {
        mut problems,
        unreadable,
        skipped,
    } = crate::model::packages(&[target.to_path_buf()]);
    super::setup::note_skipped(&skipped);
    if let Some((_, why)) = unreadable.first() {
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
            Some((problem.cases[case].id().to_string(), verdict)),
            None,
        ),
        Fate::Survived => (Status::Survived, None, None),
        Fate::Stillborn(said) => (Status::Stillborn, None, Some(Why::Stillborn(said))),
        Fate::Unjudged(why) => (Status::Unjudged, None, Some(Why::Unjudged(Arc::new(why)))),
    };
    MutantRow {
        subject: format!("{} mutant {}", run.submission, mutant.number),
        status,
        file: mutant.file.display().to_string(),
        line: mutant.line,
        diff: mutant.diff(),
        killed_by,
        why,
        found: None,
    }
}
