//! `grundy stress PROBLEM`: the front-end of [`crate::stress`]: random inputs from a built-in
//! problem's generator, the program under test (the built-in solver, or `--exec`) against the
//! brute force, on the pool; the first failing case (in case order) shrunk, printed with
//! everything needed to reproduce it, and with `--save` made a fixture. A package goes to
//! [`package`]. Exit 0 when every case agrees, 1 on a counterexample, 2 when the run cannot
//! mean anything (a brute force or generator fault, a program that cannot start).

mod package;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;

use super::setup::{built_in, load_config};
use crate::cli::StressArgs;
use crate::commands::error::CommandError;
use crate::config::{Isolate, Overrides};
use crate::discovery::answer_folders;
use crate::reporting::{print, progress_bar};
use crate::running::pool::{self, Event, PoolOptions};
use crate::stress::schedule::Schedule;
use crate::stress::{random_seed, report, shrinking, Outcome, StressJobs, Summary, Tester};

pub fn run(args: StressArgs, color: bool) -> Result<ExitCode, CommandError> {
    let Some(id) = args.problem.as_deref().filter(|p| !package::is_package(p)) else {
        return package::run(args, color);
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
    // Ctrl-C: the run's seed is printed, so the cases tried so far can be tried again.
    let rerun = report::rerun_command(problem.id, &schedule, args.exec.as_deref());
    let cancel = Arc::new(AtomicBool::new(false));
    super::setup::on_ctrl_c(&cancel);
    let options = PoolOptions {
        jobs: config.jobs,
        // The first failing case in case order is all the run looks for.
        fail_fast: true,
        cancel: Arc::clone(&cancel),
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

    let bar = progress_bar(Some(args.cases), color);
    bar.set_message(format!("{} · seed {}", problem.id, schedule.seed));
    let started = Instant::now();
    let mut first_failure = None;
    let tried = pool::run_all(jobs, cases, &options, |event| {
        if let Event::Finished(Some(tried)) = event {
            bar.inc(1);
            if first_failure.is_none() && !matches!(tried.outcome, Outcome::Agree) {
                first_failure = Some((tried.case, tried.input, tried.outcome));
            }
        }
    });
    if cancel.load(Ordering::SeqCst) {
        bar.finish_and_clear();
        eprintln!("\ninterrupted; `{rerun}` repeats this run");
        return Err(CommandError::Cancelled);
    }
    tried?;
    let summary = Summary {
        problem: problem.id,
        cases: args.cases,
        seed: schedule.seed,
        scales: schedule.describe_scales(args.cases),
    };
    let Some((case, input, outcome)) = first_failure else {
        bar.finish_and_clear();
        print(&format!("{}\n", summary.passed(started.elapsed())))?;
        return Ok(ExitCode::SUCCESS);
    };
    let trial = match outcome {
        Outcome::Disagree(trial) => *trial,
        Outcome::Broken(reason) => {
            bar.finish_and_clear();
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

    bar.finish_and_clear();
    let bar = progress_bar(None, color);
    bar.set_message(format!("shrinking case {}", case.number));
    let unshrunk = input.clone();
    let still_fails = Arc::clone(&tester);
    let shrunk = shrinking::shrink(
        problem,
        (input, trial),
        shrinking::BUDGET,
        Arc::new(
            move |candidate: &[u8]| match still_fails.try_input(candidate)? {
                Outcome::Disagree(trial) => Ok(Some(*trial)),
                Outcome::Agree | Outcome::Broken(_) => Ok(None),
            },
        ),
        &options,
        |steps, attempts| {
            bar.set_message(format!(
                "shrinking case {}: {steps} steps, {attempts} candidates tried",
                case.number
            ))
        },
    );
    if cancel.load(Ordering::SeqCst) {
        bar.finish_and_clear();
        eprintln!("\ninterrupted; `{rerun}` repeats this run");
        return Err(CommandError::Cancelled);
    }
    let shrunk = shrunk?;
    bar.finish_and_clear();
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
    print(&counterexample.render(color))?;
    if args.save {
        report::save(&config, &counterexample)?;
    }
    print(&format!(
        "{}\n",
        summary.failed(case.number, started.elapsed())
    ))?;
    Ok(ExitCode::FAILURE)
}
