//! `grundy check`: select the cases, judge them in parallel on the worker pool, report them in
//! sorted order, and exit 0 (all AC), 1 (some case failed) or 2 (nothing meaningful could be
//! judged).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use super::setup::case_config;
use crate::blessing;
use crate::checking::{Checker, Interactor};
use crate::cli::CheckArgs;
use crate::commands::error::CommandError;
use crate::config::{Isolate, Overrides};
use crate::discovery::{answer_folders, select_cases, Case, Judged};
use crate::files::beneath::{OpenError, TreePath};
use crate::judging::{
    judge_failed_run, run_case, small_input, CaseResult, Judge, Ran, Trial, Verdict,
};
use crate::plan::{self, Judges, Plan, Planned, Unpreparable};
use crate::reporting::{
    self, Dispatcher, Ended, Finished, ReportOptions, RunKind, Stages, Summary, Unit, Verbosity,
};
use crate::reporting::{notes, Format};
use crate::root_packages::{custom_validator, RootPackages};
use crate::running::pool::{self, Event, Jobs, PoolOptions, Stop, Watched};
use crate::running::{overrun_run, Input, Overrun, RunError, SolveWatch, Subject};
use crate::stages::Pool;

pub fn run(args: CheckArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    let overrides = Overrides {
        jobs: args.jobs,
        time_limit: args.time_limit,
        wall_time_limit: args.wall_time_limit,
        memory_limit_mb: args.memory_limit,
        output_limit_mb: args.output_limit,
        checker: args.checker.clone(),
        interactor: args.interactor.clone(),
        isolate: args.isolate.as_deref().map(Isolate::from_flag),
        env: args.env.clone(),
        ..Overrides::default()
    };
    let (config, filters) = case_config(&args.sources, overrides.clone(), &args.filters)?;
    // The fixtures root's packages, each read once: the walk takes their cases from here.
    let packages = RootPackages::read(&config.fixtures);
    let selection = select_cases(&config.fixtures, &filters, &packages)?;
    let verbosity = super::setup::verbosity(args.quiet, args.verbose);
    if verbosity == Verbosity::Verbose {
        for link in &selection.skipped_links {
            notes::note(format_args!(
                "not following the symbolic link `{}`",
                crate::escape::visible_line(&link.display().to_string())
            ));
        }
    }
    selection.require_some("case to judge")?;
    let mut planned = plan::planned(
        &config,
        &packages,
        &overrides,
        selection.case_problems(),
        &selection.cases,
    );
    let memory_mib = planned
        .values()
        .map(|problem| problem.settings().limits.memory_mib)
        .max()
        .unwrap_or_default();
    // What the program judged (and a source's compiler) never sees: the answers of what is
    // selected.
    let answers = answer_folders(&config.fixtures, &selection.cases);
    let mut subject = super::given::subject(
        args.exec.as_deref(),
        config.isolate.processes,
        config.isolate,
        memory_mib,
        &answers,
    )?;
    if !subject.is_external() {
        for problem in selection.case_problems() {
            if packages.contains(problem) {
                return Err(anyhow::anyhow!(
                    "`{problem}` is a problem package, which has no built-in solver: give \
                     `check` a program to judge its cases (`--exec ./sol`, or a source file: \
                     `--exec sol.py`), or verify the package's own submissions with `grundy \
                     verify`"
                )
                .into());
            }
            if grundy_problems::find(problem).is_none() {
                return Err(anyhow::anyhow!(
                    "fixtures folder `{}`: {}; judge its cases with --exec 'CMD', or rename the \
                     folder",
                    config.fixtures.join(problem).display(),
                    crate::builtin::unknown(problem)
                )
                .into());
            }
        }
    }
    // A program is judged on what a solution for the original judge can pass: not the
    // `invalid/` groups (grundy's own error messages), not the cases beyond the original limits,
    // unless asked (the reports say what was left out).
    let judged_by = match subject.is_external() {
        true => Judged::Program {
            extended: args.extended,
        },
        false => Judged::BuiltIn,
    };
    let (cases, left_out) = judged_by.split(selection.cases, &selection.filters);
    if cases.is_empty() && left_out.total() > 0 {
        return Err(anyhow::anyhow!(
            "no case to judge: a program is not judged on the selected cases by default: {}",
            reporting::left_out_lines(&left_out).join("; ")
        )
        .into());
    }
    // The suite a partition splits is what is judged.
    let suite_size = cases.len();
    let cases = match args.partition {
        Some(partition) => partition.apply(cases),
        None => cases,
    };

    if args.bless {
        bless_notes(&cases, &planned);
    }
    let mut judged: Vec<&str> = cases.iter().map(|case| case.problem.as_str()).collect();
    judged.dedup();
    // What verify warns of a problem, check warns of too: its cases are judged all the same.
    let problems_judged = judged.iter().map(|name| planned[*name].problem());
    for warning in problems_judged.flat_map(|problem| &problem.warnings) {
        notes::warning(warning);
    }
    // A package's own output validator is a program; so is one that cannot be read, maybe.
    let runs_programs = !matches!(subject, Subject::BuiltIn)
        || judged.iter().any(|problem| {
            let plan = &planned[*problem];
            let unreadable = matches!(plan.judges(), Judges::Broken(Unpreparable::Unreadable(_)));
            unreadable || custom_validator(plan.problem()).is_some()
        })
        || judged.iter().any(|problem| {
            let settings = planned[*problem].settings();
            matches!(settings.checker, Checker::External(_))
                || matches!(settings.interactor, Some(Interactor::External(_)))
        });
    if runs_programs {
        super::setup::containment_check(config.isolate)?;
    }
    subject.hide_answers(answers)?;
    // The prepare stage: the packages' output validators, built before any case is judged. A
    // package that cannot be judged fails its own cases.
    let prepare_pool = Pool::new(
        PoolOptions {
            jobs: config.jobs,
            fail_fast: false,
            cancel: Arc::clone(&cancel),
        },
        Stages::new(
            args.reports.format == Format::Human && verbosity != Verbosity::Quiet,
            color,
        ),
    );
    match plan::prepare(&mut planned, &overrides, &prepare_pool) {
        // Cut short: nothing is judged, and the reports say the run was cancelled.
        Err(Stop::Cancelled) => {}
        prepared => prepared?,
    }
    if !matches!(subject, Subject::BuiltIn) && verbosity == Verbosity::Verbose {
        notes::bare(format_args!(
            "containment: {}",
            grundy_sandbox::describe_containment()
        ));
    }
    let reporter = reporting::reporter(ReportOptions {
        format: args.reports.format,
        color,
        verbosity,
        junit: args.reports.junit(),
        html: args.reports.html(&args.html),
        slowest: args.slowest,
    });
    // The case bar is the reporter's own.
    let mut dispatch = Dispatcher::new(reporter, Stages::new(false, color), cancel, args.fail_fast);
    dispatch.run_started(&RunKind::Check {
        cases: cases.len(),
        time_limits: planned
            .iter()
            .map(|(name, problem)| (name.clone(), problem.settings().limits.time))
            .collect(),
    });
    let jobs = Arc::new(CheckJobs {
        plan: Plan {
            problems: planned,
            subject,
            cases,
        },
        fixtures: config.fixtures,
        bless: args.bless,
    });
    let options = dispatch.pool_options(config.jobs);
    // Every case names the program judged: the built-in solver, or `--exec`'s command.
    let subject = Some(args.exec.as_deref().unwrap_or(reporting::unit::BUILT_IN));
    // Ctrl-C: the runs it cut short are not reported (a killed program would look like RE); the
    // summary says the run was cancelled, and the exit status is 130.
    let judged = pool::run_with_watchdog(
        Arc::clone(&jobs),
        jobs.plan.cases.len(),
        &options,
        |event| match event {
            Event::Started(index) => dispatch.case_started(&jobs.plan.cases[index]),
            Event::Finished(Some(result)) => dispatch.finished(Finished::case(&result, subject)),
            Event::Finished(None) => dispatch.skipped(Unit::Case),
        },
    );
    dispatch.left_out(left_out);
    let summary = Summary {
        jobs: config.jobs,
        partition: args.partition.map(|p| (p.to_string(), suite_size)),
        ..Summary::default()
    };
    let status = dispatch.finish(judged, summary)?;
    // The cases go with the process, at once: freeing them one by one came after the last
    // report, a millisecond of a 5,000-case run. (Only when no abandoned solver still holds
    // them; everything else the jobs hold is dropped as usual.)
    if let Ok(CheckJobs { plan, .. }) = Arc::try_unwrap(jobs) {
        std::mem::forget(plan.cases);
    }
    Ok(status)
}

/// Judging the plan's cases, one pool job per case.
struct CheckJobs {
    plan: Plan,
    /// The fixtures root, where `--bless` writes.
    fixtures: PathBuf,
    bless: bool,
}

impl Jobs for CheckJobs {
    type Output = CaseResult;

    /// Runs the subject on the case (pass after pass, for a multi-pass package) and judges it;
    /// under `--bless`, writes the output of a one-pass case as the expected file when it is
    /// missing or not accepted. An error means the program cannot run at all.
    fn run(&self, index: usize, watch: &SolveWatch) -> Result<CaseResult> {
        let case = &self.plan.cases[index];
        let planned = &self.plan.problems[case.problem.as_str()];
        let checker = match planned.checker(case) {
            Ok(checker) => checker,
            Err(why) => {
                let message = Some(why.to_string());
                return Ok(CaseResult::new(case.clone(), Verdict::JE, message));
            }
        };
        let settings = planned.settings();
        // The expected file is read before the program runs, so nothing the program does can
        // change what it is compared with.
        let expected = match case.expected.as_ref().map(TreePath::read).transpose() {
            Ok(expected) => expected,
            Err(error) => return Ok(unreadable(case, &error)),
        };
        let trial = Trial {
            case,
            built_in: grundy_problems::find(&case.problem),
            input: Input::File(&case.input),
            expected: expected.as_deref(),
        };
        let judge_by = Judge {
            checker,
            interactor: settings.interactor.as_ref(),
        };
        let subject = &self.plan.subject;
        let judged = run_case(subject, trial, judge_by, settings, Some(watch)).map(|ran| {
            let Ran {
                mut result, last, ..
            } = ran;
            // The output of one pass of several is no expected file.
            let one_pass = settings.limits.passes == 1;
            if let Some(run) = last.filter(|_| self.bless && one_pass) {
                if blessing::wanted(result.verdict) {
                    let root = &self.fixtures;
                    blessing::bless(&mut result, &run, root, expected.as_deref());
                }
            }
            result
        });
        match judged {
            Ok(mut result) => {
                if !result.verdict.passed() {
                    result.input = small_input(case);
                }
                Ok(result)
            }
            Err(RunError::Unreadable(error)) => Ok(unreadable(case, &error)),
            Err(error) => Err(error.into()),
        }
    }

    fn failed(&self, result: &CaseResult) -> bool {
        !result.verdict.passed()
    }
}

impl Watched for CheckJobs {
    fn overdue(&self, index: usize, overrun: Overrun) -> CaseResult {
        judge_failed_run(self.plan.cases[index].clone(), &overrun_run(overrun))
    }
}

/// What `--bless` will not do, or does on the user's word, for the problems of `cases`: it
/// writes nothing for interactive problems, and for a problem judged by a checker program it
/// writes the solver's output as the answer file that program reads, whatever it expects there.
fn bless_notes(cases: &[Case], planned: &BTreeMap<String, Planned>) {
    let (mut interactive, mut by_program) = (Vec::new(), Vec::new());
    for case in cases {
        let problem = case.problem.as_str();
        let settings = planned[problem].settings();
        if settings.interactor.is_some() {
            interactive.push(problem);
        } else if matches!(settings.checker, Checker::External(_)) {
            by_program.push(problem);
        }
    }
    interactive.dedup();
    by_program.dedup();
    if !interactive.is_empty() {
        notes::note(format_args!(
            "--bless writes nothing for interactive problems ({}): their expected files \
             are information for the judge, not an output to compare; write them with \
             `grundy add` or `grundy gen`",
            interactive.join(", ")
        ));
    }
    if !by_program.is_empty() {
        notes::note(format_args!(
            "--bless writes the built-in solver's output as the answer file of problems \
             judged by a checker program ({}), where the checker did not accept it: that program \
             decides what an answer file holds, so check the files written are answers it reads",
            by_program.join(", ")
        ));
    }
}

/// A fixture file that cannot be read (or is no regular file within the fixtures) fails its
/// case with the reason (the run goes on).
fn unreadable(case: &Case, error: &OpenError) -> CaseResult {
    CaseResult::new(case.clone(), Verdict::RE, Some(error.to_string()))
}
