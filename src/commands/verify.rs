//! `grundy verify [PKG]...`: checks whole problems the way problemtools' `verifyproblem` and
//! BAPCtools' `bt run` do. The front-end: which problems (the packages named, else the one
//! around the current folder, else the built-in problems of the project), their data generated
//! first ([`crate::generation`]), the reporters, and the stages in order over every problem on
//! the pool: [`crate::build`] (every program compiled once into the build cache),
//! [`crate::validation`] (inputs through the input validators, outputs through the output
//! validator; not under `--submissions-only`) and [`crate::verification`] (every submission
//! judged and reported, streamed in order as judging goes).
//!
//! Exit 0 when every package is valid and every judged submission got a verdict it may get; 1
//! otherwise (a package whose validators did not all run is not valid); 2 for a package that
//! cannot be read (or whose `generators.yaml` cannot be used: it fails alone, not verified) or a
//! program that could not be built for a reason of the host (a judge error: a full disk, an
//! unwritable cache; the others are still verified, but the run's verdict would be a guess), or
//! a usage error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use super::setup::{load_config, note_skipped};
use crate::build::BuildJobs;
use crate::cli::Sources;
use crate::cli::VerifyArgs;
use crate::commands::error::CommandError;
use crate::config::{Config, Isolate, Overrides, Settings};
use crate::contest;
use crate::discovery::LeftOut;
use crate::escape::visible_line;
use crate::generation::report::Generated;
use crate::generation::{generate_read, read_plan, PlanErrors};
use crate::locate::Place;
use crate::model::{absolute, builtin, packages, shown, Fixed, Problem};
use crate::package::find;
use crate::package::submissions::Submission;
use crate::package::yaml::Diagnostic;
use crate::reporting::findings::{Fault, Unreadable};
use crate::reporting::{notes, Format};
use crate::reporting::{Dispatcher, Ended, RunKind, Stages, Summary};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::validation::{self, Findings};
use crate::verification::{judge, other_buckets, report, select};

pub fn run(args: VerifyArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    // runner.toml's settings (the nearest at or above the current folder, or `--config`), read
    // before any program runs: the box uids, and what a package's cases are judged under where
    // they apply, the flags over them.
    let overrides = Overrides {
        time_limit: args.time_limit,
        ..Overrides::default()
    };
    let config = load_config(&args.sources, overrides.clone())?;
    let verbosity = super::setup::verbosity(args.quiet, args.verbose);
    let reporter = super::setup::verify_reporter(&args.reports, &args.html, color, verbosity);
    // A bar for each stage, never beside JSON.
    let stages = Stages::new(args.reports.format == Format::Human, color);
    let mut dispatch = Dispatcher::new(reporter, stages.clone(), Arc::clone(&cancel), false);
    // Every package runs programs (compilers, validators, submissions).
    let isolate = args.isolate.as_deref().map(Isolate::from_flag);
    super::setup::containment_check(isolate.unwrap_or_default())?;
    let jobs = crate::config::worker_count(args.jobs);
    let pool = Pool::new(dispatch.pool_options(jobs), stages);
    let generated = match args.no_generate {
        true => Ok(vec![]),
        false => generate_first(&args, &pool),
    };
    let generated = match generated {
        // Cut short while the data is made: nothing is verified, and the reports say so.
        Err(Stop::Cancelled) => {
            dispatch.run_started(&RunKind::Verify {
                unreadable: vec![],
                explain: args.explain,
            });
            return Ok(dispatch.finish(Err(Stop::Cancelled), Summary::default())?);
        }
        generated => generated?,
    };
    let (mut made, mut no_plan) = (vec![], vec![]);
    for (root, planned) in generated {
        match planned {
            Ok(generated) => made.push((root, generated)),
            Err(errors) => no_plan.push((root, errors)),
        }
    }
    let generated = made;
    let not_generated = generated.iter().filter_map(|(root, generated)| {
        let made = generated.made();
        (!made.ok()).then(|| Unreadable::NotGenerated {
            package: shown(root),
            failed: made.failed.len(),
        })
    });
    let (mut problems, labels, mut unreadable) = problems(&args)?;
    // A package whose data cannot be made as its plan says fails as that package; the others
    // are verified. Under --no-generate its data is verified as it is, the plan's errors warned.
    problems.retain(|problem| !no_plan.iter().any(|(root, _)| *root == problem.root));
    // A package that cannot be read is said once, by what stops it being read (which its plan
    // most likely fails on too).
    let unread: Vec<String> = unreadable.iter().map(Unreadable::package).collect();
    unreadable.extend(
        (no_plan.into_iter())
            .map(|(root, errors)| Unreadable::NoPlan {
                package: shown(&root),
                errors: errors.0,
            })
            .filter(|no_plan| !unread.contains(&no_plan.package())),
    );
    if args.no_generate {
        for problem in &mut problems {
            problem.warnings.extend(unusable_plan(&problem.root));
        }
    }
    let (_, named) = select::split_targets(&args.packages);
    let selectors: Vec<String> = args.submissions.iter().cloned().chain(named).collect();
    select::submissions(&mut problems, &selectors)?;
    // The submissions a partition splits are those selected.
    let selected: usize = problems.iter().map(|p| p.submissions.len()).sum();
    if let Some(limit) = args.time_limit {
        for problem in &mut problems {
            problem.limits.time_limit = Some(limit);
            problem.time_limit_source = Fixed::Flag;
        }
    }
    let elsewhere = match args.partition {
        Some(partition) => select::partition(&mut problems, partition),
        None => vec![vec![]; problems.len()],
    };
    unreadable.extend(not_generated.filter(|not| !unread.contains(&not.package())));
    let beyond_original_limits = problems.iter().map(|p| p.unjudged.len()).sum();
    dispatch.left_out(LeftOut {
        invalid: 0,
        beyond_original_limits,
    });
    let labels = problems
        .iter()
        .map(|problem| labels.get(&problem.root).cloned())
        .collect();
    let settings = super::setup::judged_settings(&config, &problems, &overrides);
    let problems = Arc::new(problems);
    dispatch.run_started(&RunKind::Verify {
        unreadable,
        explain: args.explain,
    });
    for (_, generated) in &generated {
        dispatch.generated(&generated.made());
    }
    // Ctrl-C cuts any stage short: what was reported stays, and the run says it was cancelled.
    let verified = verify_all(
        &problems,
        elsewhere,
        &settings,
        labels,
        &pool,
        &args,
        &mut dispatch,
    );
    let summary = Summary {
        partition: args.partition.map(|p| (p.to_string(), selected)),
        ..Summary::default()
    };
    Ok(dispatch.finish(verified, summary)?)
}

/// The stages over every problem: build, validate (unless `--submissions-only`), judge (each
/// problem under its `settings`), each on the pool; each problem reported as judging goes.
/// `elsewhere`: per problem, the submissions of other buckets of `--partition` its computed
/// time limit comes from, timed before judging.
fn verify_all(
    problems: &Arc<Vec<Problem>>,
    elsewhere: Vec<Vec<Submission>>,
    settings: &[Settings],
    labels: Vec<Option<String>>,
    pool: &Pool,
    args: &VerifyArgs,
    dispatch: &mut Dispatcher,
) -> Result<(), Stop> {
    let build_jobs = Arc::new(BuildJobs::new(problems.iter()));
    let built = pool.run(Arc::clone(&build_jobs), build_jobs.len(), "building")?;
    let builds = Arc::new(build_jobs.collect(built));

    let findings = if args.submissions_only {
        let skipped = || Findings {
            summary: "not run (--submissions-only)".into(),
            ..Findings::default()
        };
        problems.iter().map(|_| skipped()).collect()
    } else {
        validation::validate(problems, &builds, pool)?
    };

    let mut findings = findings;
    if args.warnings_as_errors {
        for (problem, found) in problems.iter().zip(&mut findings) {
            let count = problem.warnings.len();
            if count > 0 {
                found.failures += count;
                found.errors.push(Fault::Warnings(count));
            }
        }
    }
    if args.first_failure {
        notes::note(
            "--first-failure: each submission is judged up to its first failing case, so CAUGHT \
             BY names that case alone and later verdicts go unchecked",
        );
    }
    let mut stream = report::Stream::new(
        dispatch,
        problems,
        &builds,
        findings,
        args.submissions_only,
        labels,
    );
    let timed_elsewhere = other_buckets::timed(problems, elsewhere, settings, pool)?;
    judge::judge_all(
        problems,
        settings,
        &timed_elsewhere,
        &builds,
        pool,
        args.first_failure,
        &mut stream,
    )
}

/// Generates the data of each package named that has a `generators/generators.yaml` (what is
/// unchanged is not made again): each package's folder, and what generating it did, or the
/// located errors of a plan that cannot be used (that package alone fails).
fn generate_first(args: &VerifyArgs, pool: &Pool) -> Result<Vec<(PathBuf, Planned)>, Stop> {
    // The same packages `problems` reads: those named (a submission's path names its
    // package), else the one around the current folder.
    let (mut targets, _) = select::split_targets(&args.packages);
    if targets.is_empty() {
        match default_target(&args.sources)? {
            Target::Package(package) => targets.push(package),
            Target::BuiltIn { .. } => return Ok(vec![]),
        }
    }
    let mut generated = vec![];
    for target in &targets {
        let Ok(found) = find::find(target) else {
            continue;
        };
        for package in &found.packages {
            let root = absolute(package);
            if !crate::package::generators::file_of(&root).is_file() {
                continue;
            }
            let read = match read_plan(&root) {
                Ok(read) => read,
                Err(errors) => {
                    generated.push((root, Err(errors)));
                    continue;
                }
            };
            let options = crate::generation::Options::default();
            let made = match generate_read(&root, read, &options, pool, false) {
                Err(Stop::Failed(error)) => {
                    let at = format!("cannot generate the data of `{}`", shown(&root));
                    return Err(Stop::Failed(error.context(at)));
                }
                made => made?,
            };
            generated.push((root, Ok(made)));
        }
    }
    Ok(generated)
}

/// What generating a package's data did, or why its plan cannot be used.
type Planned = Result<Generated, PlanErrors>;

/// The located errors of the `generators.yaml` of the package at `root` when it has one that
/// cannot be used, as warnings: `--no-generate` verifies the data as it is, but says so.
fn unusable_plan(root: &Path) -> Vec<Diagnostic> {
    if !crate::package::generators::file_of(root).is_file() {
        return vec![];
    }
    match read_plan(root) {
        Ok(_) => vec![],
        Err(PlanErrors(errors)) => errors,
    }
}

/// The problems to verify (a contest's in its order), each contest's problems' labels by
/// their folders, and the packages that could not be read (located errors).
fn problems(args: &VerifyArgs) -> Result<(Vec<Problem>, Labels, Vec<Unreadable>)> {
    let (mut targets, _) = select::split_targets(&args.packages);
    if targets.is_empty() {
        match default_target(&args.sources)? {
            Target::Package(package) => targets.push(package),
            Target::BuiltIn { config, project } => {
                let problems = builtin::problems(&config, &project, args.extended)?;
                return Ok((problems, Labels::new(), vec![]));
            }
        }
    }
    let (mut labels, mut unreadable) = (Labels::new(), vec![]);
    let mut folders = vec![];
    for target in targets {
        match contest_folders(&target) {
            Ok(Some(contest::Ordered { labelled, unlisted })) => {
                for (label, folder) in labelled {
                    labels.insert(absolute(&folder), label);
                    folders.push(folder);
                }
                for name in unlisted {
                    notes::note(format_args!(
                        "skipped {}: {} does not list it",
                        visible_line(&target.join(&name).display().to_string()),
                        visible_line(&target.join(contest::PROBLEMS_FILE).display().to_string()),
                    ));
                }
            }
            Ok(None) => folders.push(target),
            // The contest's order is lost, its packages are not: verified in folder order.
            Err(error) => {
                unreadable.push((target.clone(), error));
                folders.push(target);
            }
        }
    }
    let read = packages(&folders);
    note_skipped(&read.skipped);
    unreadable.extend(read.unreadable);
    let unreadable = (unreadable.into_iter())
        .map(|(root, error)| Unreadable::at(&root, error))
        .collect();
    Ok((read.problems, labels, unreadable))
}

/// Each problem's label in its contest, by the problem's folder.
type Labels = BTreeMap<PathBuf, String>;

/// The package folders of the contest at `target` in its order with their labels, and the
/// names of those its `problems.yaml` leaves out; `None` when `target` is no contest (a package,
/// or no folder: reading it says why).
fn contest_folders(target: &Path) -> Result<Option<contest::Ordered<PathBuf>>, Diagnostic> {
    if !target.is_dir() || target.join(crate::locate::PACKAGE_FILE).is_file() {
        return Ok(None);
    }
    let Ok(found) = find::find(target) else {
        return Ok(None);
    };
    let listed = contest::listed(target)?;
    note_skipped(&found.skipped);
    let named = found
        .packages
        .into_iter()
        .map(|folder| (find::name_of(&folder), folder))
        .collect();
    let file = target.join(contest::PROBLEMS_FILE);
    contest::ordered(&file, listed.as_deref(), named).map(Some)
}

/// What `verify` (and `timelimit`) act on without a `PKG`.
enum Target {
    /// The package holding the current folder.
    Package(PathBuf),
    /// The built-in problems of the project whose settings were found (or whose default
    /// fixtures root is here).
    BuiltIn {
        config: Box<Config>,
        project: PathBuf,
    },
}

/// The package holding the current folder, else the built-in problems of the project around
/// it; neither is an error saying what was looked for, and where.
fn default_target(sources: &Sources) -> Result<Target> {
    let place = Place::find(sources.config.as_deref())?;
    if let Some(package) = place.package {
        return Ok(Target::Package(package));
    }
    let project = place.runner.is_some() || sources.fixtures.is_some();
    if !project && !Path::new("fixtures").is_dir() {
        return Err(place.nothing_here("problem package").into());
    }
    let config = load_config(sources, Overrides::default())?;
    Ok(Target::BuiltIn {
        config: Box::new(config),
        project: place.project(),
    })
}

/// What `timelimit` acts on without a `PKG`: the package holding the current folder, else the
/// current folder (a contest of packages).
pub fn default_package() -> Result<PathBuf> {
    Ok(Place::find(None)?
        .package
        .unwrap_or_else(|| PathBuf::from(".")))
}
