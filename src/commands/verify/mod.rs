//! `grundy verify [PKG]...`: checks whole problems the way problemtools' `verifyproblem` and
//! BAPCtools' `bt run` do. One module per stage, each over every problem at once on the worker
//! pool: [`model`] (the problems, from Kattis packages or from [`builtin`] problems), [`build`]
//! (every program compiled once into the build cache), [`validation`] (inputs through the input
//! validators, outputs through the output validator), [`judge`] (every submission on every case,
//! with [`checkers`] deciding how outputs are judged and [`time_limit`] the limit), [`outcome`]
//! (each submission against what it must get) and [`report`]. [`fixtures`] lends the packages'
//! settings to `check` and `list`.
//!
//! Exit 0 when every package is valid and every judged submission got a verdict it may get; 1
//! otherwise (a package whose validators did not all run is not valid); 2 for a package that
//! cannot be read or a program that could not be built for a reason of the host (a judge error:
//! a full disk, an unwritable cache; the others are still verified, but the run's verdict
//! would be a guess), or a usage error.

mod build;
mod builtin;
mod cache;
mod checkers;
mod first_failure;
mod fixtures;
mod judge;
mod model;
mod outcome;
mod report;
mod results;
mod time_limit;
mod timing;
mod validation;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};

use super::load_config;
use crate::cli::{Format, VerifyArgs};
use crate::config::{Isolate, Overrides};
use crate::package::{find, load_package};
use crate::reporting::progress_bar;
use crate::running::pool::{self, Cancelled, Event, Jobs, PoolOptions};
use build::{Build, BuildJobs, Builds};
pub use fixtures::{RootPackages, Unpreparable};
use model::{absolute, Problem};
use report::{ProblemReport, Totals};
pub use timing::run as timelimit;
use validation::{Findings, ValidationJobs};

pub fn run(args: VerifyArgs, color: bool) -> Result<ExitCode> {
    let started = Instant::now();
    let (problems, unreadable) = problems(&args)?;
    // Every package runs programs (compilers, validators, submissions).
    let isolate = args.isolate.as_deref().map(Isolate::from_flag);
    super::containment_check(isolate.unwrap_or_default())?;
    let problems = Arc::new(problems);
    let cancel = Arc::new(AtomicBool::new(false));
    // Ctrl-C must not leave compilers or submissions running.
    super::on_ctrl_c(&cancel);
    let jobs = match args.jobs {
        None | Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
    };
    let pool = Pool {
        options: PoolOptions {
            jobs,
            fail_fast: false,
            cancel,
        },
        color,
        progress: args.format == Format::Human,
    };

    // Ctrl-C cuts any stage short: what is reported then is that the run was cancelled.
    let (reports, cancelled) = match verify_all(&problems, &pool, &args) {
        Err(error) if error.is::<Cancelled>() => (Vec::new(), true),
        verified => (verified?, false),
    };
    let mut totals = Totals::count(&reports, unreadable, started.elapsed());
    totals.cancelled = cancelled;
    report::report(
        &reports,
        &totals,
        args.format,
        args.junit.as_ref(),
        args.verbose,
    )?;
    Ok(if totals.cancelled {
        ExitCode::from(130)
    } else if !totals.unreadable.is_empty() || totals.judge_errors > 0 {
        ExitCode::from(2)
    } else if totals.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The stages over every problem: build, validate (unless `--submissions-only`), judge, each on
/// the pool; then each problem's report.
fn verify_all(
    problems: &Arc<Vec<Problem>>,
    pool: &Pool,
    args: &VerifyArgs,
) -> Result<Vec<ProblemReport>> {
    let build_jobs = Arc::new(BuildJobs::new(problems.iter()));
    let built = pool.run(Arc::clone(&build_jobs), build_jobs.len(), "building")?;
    let builds = Arc::new(build_jobs.collect(built));

    let findings = if args.submissions_only {
        let skipped = || Findings {
            errors: vec![],
            unchecked: vec![],
            summary: "not run (--submissions-only)".into(),
        };
        problems.iter().map(|_| skipped()).collect()
    } else {
        let validation = Arc::new(ValidationJobs::new(
            Arc::clone(problems),
            Arc::clone(&builds),
        ));
        let said = pool.run(Arc::clone(&validation), validation.len(), "validating")?;
        validation.findings(&said)
    };

    if args.first_failure {
        eprintln!(
            "note: --first-failure: each submission is judged up to its first failing case, so \
             CAUGHT BY names that case alone and later verdicts go unchecked"
        );
    }
    let judgings = judge::judge_all(problems, &builds, pool, args.first_failure)?;

    let reports = problems
        .iter()
        .zip(findings)
        .zip(judgings)
        .map(|((problem, findings), judging)| {
            let mut errors = findings.errors;
            errors.extend(judging.errors);
            // An output validator that did not run stops validation and judging alike: one line.
            let mut unchecked = findings.unchecked;
            for line in judging.unchecked {
                if !unchecked.contains(&line) {
                    unchecked.push(line);
                }
            }
            let mut warnings = problem.warnings.clone();
            warnings.extend(judging.warnings);
            let validation = if errors.is_empty() && unchecked.is_empty() && !args.submissions_only
            {
                format!("{}: ok", findings.summary)
            } else {
                findings.summary
            };
            ProblemReport {
                name: problem.name.clone(),
                origin: shown(&problem.root),
                warnings,
                build: build_line(problem, &builds),
                validation,
                time_limit: judging.time_limit_line.clone(),
                rows: outcome::rows(problem, &judging.submissions),
                errors,
                unchecked,
                judge_errors: judge_errors(problem, &builds),
            }
        })
        .collect();
    Ok(reports)
}

/// The problems to verify, and the packages that could not be read (located errors).
fn problems(args: &VerifyArgs) -> Result<(Vec<Problem>, Vec<String>)> {
    let here = std::env::current_dir().context("cannot read the working directory")?;
    let mut targets = args.packages.clone();
    if targets.is_empty() {
        if !here.join("problem.yaml").is_file() {
            let config = load_config(&args.sources, Overrides::default())?;
            return Ok((builtin::problems(&config, &here)?, vec![]));
        }
        targets.push(PathBuf::from("."));
    }
    Ok(packages(&targets))
}

/// The packages found at `targets` (package or contest folders) as problems, and those that
/// could not be read (located errors).
fn packages(targets: &[PathBuf]) -> (Vec<Problem>, Vec<String>) {
    let mut problems = vec![];
    let mut unreadable = vec![];
    for target in targets {
        let found = match find::find(target) {
            Ok(found) => found,
            Err(error) => {
                unreadable.push(error.to_string());
                continue;
            }
        };
        for note in &found.notes {
            eprintln!("note: {}", crate::escape::visible_line(note));
        }
        for package in &found.packages {
            match load_package(&absolute(package)) {
                Ok(package) => problems.push(Problem::from_package(package)),
                Err(error) => unreadable.push(error.to_string()),
            }
        }
    }
    (problems, unreadable)
}

/// `9 programs: 7 compiled, 2 from the cache, 1 failed, 1 skipped, 1 judge error`.
fn build_line(problem: &Problem, builds: &Builds) -> String {
    let (mut compiled, mut cached, mut failed, mut skipped, mut host) = (0, 0, 0, 0, 0);
    for program in problem.programs() {
        match builds.of(program) {
            Build::Ready { cached: true, .. } => cached += 1,
            Build::Ready { cached: false, .. } => compiled += 1,
            Build::Failed(_) => failed += 1,
            Build::Skipped(_) => skipped += 1,
            Build::HostError(_) => host += 1,
        }
    }
    let mut parts = vec![];
    for (count, what) in [
        (compiled, "built"),
        (cached, "from the cache"),
        (failed, "failed"),
        (skipped, "skipped"),
        (host, "judge error(s) of the host"),
    ] {
        if count > 0 {
            parts.push(format!("{count} {what}"));
        }
    }
    let total = compiled + cached + failed + skipped + host;
    let cache = cache::cache_folder(&problem.root);
    match parts.is_empty() {
        true => "no programs".into(),
        false => format!(
            "{total} program(s): {} (cache {})",
            parts.join(", "),
            shown(&cache)
        ),
    }
}

/// The programs of `problem` the host failed to build, each by its path in the problem and what
/// went wrong.
fn judge_errors(problem: &Problem, builds: &Builds) -> Vec<String> {
    let programs = problem.programs();
    programs
        .filter_map(|program| match builds.of(program) {
            Build::HostError(error) => {
                let path = program.path.relative().display();
                Some(format!("{path} could not be built: {error}"))
            }
            _ => None,
        })
        .collect()
}

/// The worker pool as every stage uses it: a progress bar on a terminal, the outputs in job
/// order, and [`Cancelled`] after Ctrl-C.
pub struct Pool {
    options: PoolOptions,
    color: bool,
    /// Whether a progress bar may be drawn (never beside JSON).
    progress: bool,
}

impl Pool {
    /// A pool of `options`, drawing a progress bar (in colour when `color`) when `progress`.
    pub fn new(options: PoolOptions, color: bool, progress: bool) -> Pool {
        Pool {
            options,
            color,
            progress,
        }
    }

    pub fn run<J: Jobs>(
        &self,
        jobs: Arc<J>,
        count: usize,
        what: &str,
    ) -> Result<Vec<Option<J::Output>>> {
        let bar = match self.progress {
            true => progress_bar(Some(count as u64), self.color),
            false => indicatif::ProgressBar::hidden(),
        };
        bar.set_message(what.to_string());
        let mut outputs = Vec::with_capacity(count);
        let ran = pool::run_all(jobs, count, &self.options, |event| {
            if let Event::Finished(output) = event {
                bar.inc(1);
                outputs.push(output);
            }
        });
        bar.finish_and_clear();
        if self.options.cancel.load(Ordering::SeqCst) {
            return Err(Cancelled.into());
        }
        ran?;
        Ok(outputs)
    }
}

/// The path shown for a problem's folder: relative to the working directory when inside it.
pub fn shown(path: &Path) -> String {
    let here = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&here)
        .unwrap_or(path)
        .display()
        .to_string()
}
