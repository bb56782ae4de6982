//! `grundy check`: discover the selected cases, judge them in parallel, report in sorted order,
//! and exit 0 (all AC), 1 (some case failed) or 2 (nothing meaningful could be judged).

use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::{known_problems, load_config};
use crate::cli::CheckArgs;
use crate::config::{Config, Overrides};
use crate::discovery::{discover, select, Case, Filter};
use crate::files::{write_atomic, Existing};
use crate::judging::{judge, CaseResult, Verdict};
use crate::reporting::{self, ReportOptions, Reporter, Summary, Verbosity};
use crate::running::{run_in_process, Run};

pub fn run(args: CheckArgs, color: bool) -> Result<ExitCode> {
    let overrides = Overrides {
        jobs: args.jobs,
        time_limit_ms: args.time_limit,
        memory_limit_mb: args.memory_limit,
        output_limit_mb: args.output_limit,
        checker: args.checker.clone(),
        ..Overrides::default()
    };
    let config = load_config(&args.sources, overrides)?;
    let filters: Vec<Filter> = args
        .filters
        .iter()
        .map(|f| f.parse())
        .collect::<Result<_>>()?;
    let wanted: BTreeSet<&str> = filters.iter().map(|f| f.problem.as_str()).collect();
    let fixtures = discover(&config.fixtures, |p| {
        wanted.is_empty() || wanted.contains(p)
    })?;
    let verbosity = match (args.quiet, args.verbose) {
        (true, _) => Verbosity::Quiet,
        (_, true) => Verbosity::Verbose,
        _ => Verbosity::Normal,
    };
    if verbosity == Verbosity::Verbose {
        for link in &fixtures.skipped_links {
            eprintln!("note: not following the symbolic link `{}`", link.display());
        }
    }
    let cases = select(fixtures.cases, &filters)?;
    if cases.is_empty() {
        bail!(
            "no case to judge: there is no `.in` file below `{}`{}",
            config.fixtures.display(),
            if filters.is_empty() {
                ""
            } else {
                " for the given filters"
            }
        );
    }
    let problems: BTreeSet<&str> = cases.iter().map(|c| c.problem.as_str()).collect();
    for problem in problems {
        if grundy_problems::find(problem).is_none() {
            bail!(
                "fixtures folder `{}` has no built-in problem `{problem}` (known: {}); judge its \
                 cases with --exec 'CMD', or rename the folder",
                config.fixtures.join(problem).display(),
                known_problems()
            );
        }
    }
    let suite_size = cases.len();
    let cases = match args.partition {
        Some(partition) => partition.apply(cases),
        None => cases,
    };

    let mut reporter = reporting::reporter(ReportOptions {
        format: args.format,
        color,
        verbosity,
        junit: args.junit.clone(),
        slowest: args.slowest,
        time_limits: cases
            .iter()
            .map(|c| (c.problem.clone(), config.settings(&c.problem).time_limit))
            .collect(),
        cases: cases.len(),
    });
    let started = Instant::now();
    let mut summary = judge_all(&cases, &config, args.fail_fast, reporter.as_mut(), |case| {
        judge_built_in(case, &config, args.bless)
    })?;
    summary.wall_time = started.elapsed();
    summary.jobs = config.jobs;
    summary.partition = args.partition.map(|p| (p.to_string(), suite_size));
    reporter.finish(&summary)?;
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Judges `cases` on `config.jobs` rayon workers and hands the results to `reporter` in case
/// order as soon as each one's turn comes, whatever order they finish in.
fn judge_all(
    cases: &[Case],
    config: &Config,
    fail_fast: bool,
    reporter: &mut dyn Reporter,
    judge_one: impl Fn(&Case) -> CaseResult + Sync,
) -> Result<Summary> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .thread_name(|i| format!("grundy-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    let next_case = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<Event>();
    let mut summary = Summary::default();
    std::thread::scope(|scope| {
        let (next_case, stop, judge_one) = (&next_case, &stop, &judge_one);
        scope.spawn(move || {
            // Workers take cases in sorted order, so results stream out nearly in order.
            pool.broadcast(|_| loop {
                let index = next_case.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(index) else { break };
                let result = if stop.load(Ordering::Relaxed) {
                    None
                } else {
                    let _ = sender.send(Event::Started(index));
                    let result = judge_one(case);
                    if fail_fast && !result.verdict.passed() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    Some(result)
                };
                if sender.send(Event::Finished(index, result)).is_err() {
                    break;
                }
            });
            drop(sender);
        });
        let mut pending = BTreeMap::new();
        let mut next_to_report = 0;
        for event in results {
            let (index, result) = match event {
                Event::Started(index) => {
                    reporter.case_started(&cases[index]);
                    continue;
                }
                Event::Finished(index, result) => (index, result),
            };
            pending.insert(index, result);
            while let Some(result) = pending.remove(&next_to_report) {
                next_to_report += 1;
                match result {
                    None => summary.skipped += 1,
                    Some(result) => {
                        if result.verdict.passed() {
                            summary.passed += 1;
                        } else {
                            summary.failed += 1;
                        }
                        reporter.case_finished(&result);
                    }
                }
            }
        }
    });
    Ok(summary)
}

/// What a worker tells the reporting thread about the case at an index: started (for progress),
/// or finished with its result (`None` when `--fail-fast` skipped it).
enum Event {
    Started(usize),
    Finished(usize, Option<CaseResult>),
}

/// Runs the built-in solver on `case` and judges it; under `--bless`, writes the solver's output
/// as the expected file when it is missing or not accepted.
fn judge_built_in(case: &Case, config: &Config, bless: bool) -> CaseResult {
    let settings = config.settings(&case.problem);
    let problem =
        grundy_problems::find(&case.problem).expect("problems were checked before judging");
    let run = match std::fs::read(&case.input) {
        Ok(input) => run_in_process(problem.solve, input, settings.time_limit),
        Err(error) => return unreadable(case, &case.input, error),
    };
    let expected = match case.expected.as_ref().map(std::fs::read).transpose() {
        Ok(expected) => expected,
        Err(error) => {
            return unreadable(
                case,
                case.expected.as_ref().expect("read only when present"),
                error,
            )
        }
    };
    let mut result = judge(case.clone(), &run, expected.as_deref(), &settings.checker);
    if bless && matches!(result.verdict, Verdict::WA | Verdict::PE | Verdict::NOEXP) {
        bless_case(&mut result, &run);
    }
    result
}

fn bless_case(result: &mut CaseResult, run: &Run) {
    let path = result
        .case
        .expected
        .clone()
        .unwrap_or_else(|| result.case.default_expected_path());
    match write_atomic(&path, &run.output, Existing::Replace) {
        Ok(()) => {
            result.verdict = Verdict::AC;
            result.message = None;
            result.diff = None;
            result.blessed = Some(path);
        }
        Err(error) => {
            result.message = Some(format!("--bless could not write: {error:#}"));
        }
    }
}

/// A fixture file that cannot be read fails its case with the reason (the run goes on).
fn unreadable(case: &Case, path: &std::path::Path, error: std::io::Error) -> CaseResult {
    let message = format!("cannot read `{}`: {error}", path.display());
    CaseResult::new(case.clone(), Verdict::RE, Some(message))
}
