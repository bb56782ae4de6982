//! `grundy stress PROBLEM`: the front-end of [`crate::stress`]: random inputs from a built-in
//! problem's generator, the program under test (the built-in solver, or `--exec`) against the
//! brute force, on the pool, each case a unit of the run's report; the first failing case (in
//! case order) shrunk, reported with everything needed to reproduce it, and with `--save` made
//! a fixture. A package goes to [`package`]. Exit 0 when every case agrees, 1 on a
//! counterexample, 2 when the run cannot mean anything (a brute force or generator fault, a
//! program that cannot start), 130 after Ctrl-C (the report says how to repeat the run).

mod package;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Result;

use super::setup::{built_in, load_config};
use crate::cli::StressArgs;
use crate::commands::error::CommandError;
use crate::config::{Isolate, Overrides};
use crate::discovery::answer_folders;
use crate::reporting::stressed::{Counterexample, StressRun, Tried};
use crate::reporting::unit::BUILT_IN;
use crate::reporting::{Dispatcher, Ended, Finished, RunKind, Stages, Summary, Unit};
use crate::running::pool::{self, Event, PoolOptions, Stop};
use crate::stress::schedule::Schedule;
use crate::stress::{random_seed, report, shrinking, Outcome, StressJobs, Tester};

pub fn run(args: StressArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    let Some(id) = args.problem.as_deref().filter(|p| !package::is_package(p)) else {
        return package::run(args, color, cancel);
    };
    if args.generator.is_some() {
        return Err(anyhow::anyhow!(
            "--generator names a package's generator, and `{id}` is a built-in problem, whose \
             inputs come from its own generator; drop --generator, or give a package folder"
        )
        .into());
    }
    let problem = built_in(id)?;
    let overrides = Overrides {
        jobs: args.jobs,
        time_limit: args.time_limit,
        wall_time_limit: args.wall_time_limit,
        env: args.env.clone(),
        isolate: args.isolate.as_deref().map(Isolate::from_flag),
        ..Overrides::default()
    };
    let config = load_config(&args.sources, overrides)?;
    let settings = config.settings(problem.id).clone();
    // Its cases' answers are the brute force's, in memory; the fixtures' stay out of reach too.
    let answers = answer_folders(&config.fixtures, &[]);
    let mut subject = super::given::subject(
        args.exec.as_deref(),
        false,
        config.isolate,
        settings.limits.memory_mib,
        &answers,
    )?;
    if subject.is_external() {
        super::setup::containment_check(config.isolate)?;
    }
    subject.hide_answers(answers)?;
    let schedule = Schedule {
        seed: args.seed.unwrap_or_else(random_seed),
        scale: args.scale.map(|scale| scale.0),
    };
    let run = StressRun {
        problem: problem.id.to_string(),
        subject: args.exec.clone().unwrap_or_else(|| BUILT_IN.to_string()),
        against: "the brute force".into(),
        cases: args.cases,
        seed: schedule.seed,
        scales: Some(schedule.describe_scales(args.cases)),
        // What Ctrl-C says: the seed repeats the cases tried so far.
        rerun: report::rerun_command(problem.id, &schedule, args.exec.as_deref()),
    };
    let (mut dispatch, stages) = dispatcher(&args, color, Arc::clone(&cancel));
    let options = PoolOptions {
        // The first failing case in case order is all the run looks for.
        fail_fast: true,
        ..dispatch.pool_options(config.jobs)
    };
    let tester = Arc::new(Tester {
        problem,
        subject,
        settings,
    });
    let cases = usize::try_from(args.cases).unwrap_or(usize::MAX);
    let jobs = Arc::new(StressJobs {
        schedule,
        tester: Arc::clone(&tester),
    });

    dispatch.run_started(&RunKind::Stress(run.clone()));
    let bar = stages.start(&format!("{} · seed {}", problem.id, schedule.seed), cases);
    let mut first_failure = None;
    let tried = pool::run_all(jobs, cases, &options, |event| {
        if let Event::Finished(tried) = event {
            bar.inc(1);
            take(&mut dispatch, &run, &mut first_failure, tried, |tried| {
                tried.outcome.unit(tried.case.number, tried.case.seed)
            });
        }
    });
    stages.end();
    let cancelled = || cancel.load(Ordering::SeqCst);
    if tried.is_err() || cancelled() {
        return end(dispatch, tried);
    }
    let Some(crate::stress::Tried {
        case,
        input,
        outcome,
    }) = first_failure
    else {
        return end(dispatch, Ok(()));
    };
    let trial = match outcome {
        Outcome::Disagree(trial) => *trial,
        Outcome::Broken(reason) => {
            return Err(anyhow::anyhow!(
                "{reason}; the stress run means nothing until that is fixed. The input: case {} \
                 of seed {}, rebuilt by `grundy gen {} CASE --seed {} --scale {}`",
                case.number,
                schedule.seed,
                problem.id,
                case.seed,
                case.scale
            )
            .into());
        }
        Outcome::Agree => unreachable!("agreeing cases are not reported"),
    };

    let bar = stages.spinner(&format!("shrinking case {}", case.number));
    let unshrunk = input.clone();
    let shrunk = shrinking::shrink(
        problem,
        (input, trial),
        shrinking::BUDGET,
        tester.still_fails(),
        &options,
        |steps, attempts| {
            bar.set_message(format!(
                "shrinking case {}: {steps} steps, {attempts} candidates tried",
                case.number
            ))
        },
    );
    stages.end();
    let shrunk = match shrunk {
        Ok(shrunk) if !cancelled() => shrunk,
        Ok(_) => return end(dispatch, Err(Stop::Cancelled)),
        Err(stop) => return end(dispatch, Err(stop)),
    };
    let counterexample = report::Counterexample {
        problem: problem.id,
        program: tester.subject.describe(problem.id),
        role: tester.subject.role(),
        exec: tester.subject.command().map(String::from),
        schedule,
        case,
        unshrunk,
        shrunk,
    };
    let trial = &counterexample.shrunk.trial;
    let found = Counterexample {
        number: case.number,
        verdict: trial.result.verdict,
        message: trial.result.message.clone(),
        input: counterexample.shrunk.input.clone(),
        expected: trial.expected.clone(),
        output: trial.output.clone(),
        remake: counterexample.gen_command("CASE"),
        shown: counterexample.render(color),
        saved: None,
    };
    let saved = args.save.then(|| report::save(&config, &counterexample));
    found_one(dispatch, found, saved)
}

/// Reports the counterexample `found`, with what `--save` made of it (`saved`, when asked),
/// and ends the run; a save that failed is the run's error, once the counterexample is shown.
pub(super) fn found_one(
    mut dispatch: Dispatcher,
    mut found: Counterexample,
    saved: Option<Result<String>>,
) -> Result<Ended, CommandError> {
    let failed = match saved {
        Some(Ok(lines)) => {
            found.saved = Some(lines);
            None
        }
        Some(Err(error)) => Some(error),
        None => None,
    };
    dispatch.counterexample(&found);
    match failed {
        Some(error) => Err(error.into()),
        None => end(dispatch, Ok(())),
    }
}

/// Takes a case the pool hands back (`None`: it did not run): reported as a unit of the run as
/// `seen` makes it, or kept unreported when `seen` says `None`, a case broken by no fault of
/// the program (the run then ends with why). The first case that did not agree is kept in
/// `first_failure`, and every case after it is skipped, whatever the workers tried already: a
/// seed's report is the same for any number of workers.
pub(super) fn take<T>(
    dispatch: &mut Dispatcher,
    run: &StressRun,
    first_failure: &mut Option<T>,
    tried: Option<T>,
    seen: impl Fn(&T) -> Option<Tried>,
) {
    let Some(tried) = tried.filter(|_| first_failure.is_none()) else {
        return dispatch.skipped(Unit::Case);
    };
    let unit = seen(&tried);
    if let Some(unit) = unit {
        let case = unit.number.to_string();
        dispatch.finished(Finished::tried(run, &case, unit));
    }
    if unit.is_none_or(|unit| unit.verdict.is_some()) {
        *first_failure = Some(tried);
    }
}

/// Ends the run as `ran` went: its summary reported, or its error.
pub(super) fn end(dispatch: Dispatcher, ran: Result<(), Stop>) -> Result<Ended, CommandError> {
    Ok(dispatch.finish(ran, Summary::default())?)
}

/// The reporters of a stress run, behind its dispatcher, and the bars of its stages.
pub(super) fn dispatcher(
    args: &StressArgs,
    color: bool,
    cancel: Arc<AtomicBool>,
) -> (Dispatcher, Stages) {
    let format = args.reports.format;
    super::setup::dispatcher(format, args.reports.junit(), None, color, cancel)
}
