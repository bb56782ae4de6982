//! `grundy stress PKG --exec PROGRAM`: the front-end of [`crate::stress::package`], stress on
//! any Kattis package, no Rust needed: the package, its generators and reference solution
//! found and built, the program under test contained, the cases tried on the pool, the first
//! failing one shrunk where the generator takes a size, reported, and with `--save` written into
//! the package; each case a unit of the run's report, as for a built-in problem. Exit 0 when
//! every case agrees, 1 on a counterexample, 2 when the run cannot mean anything (a generator,
//! validator or reference at fault), 130 after Ctrl-C.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{anyhow, Result};

use crate::cli::StressArgs;
use crate::commands::error::CommandError;
use crate::config::{Isolate, Overrides};
use crate::generation::limits as generator_limits;
use crate::locate::Place;
use crate::model::{absolute, judged_under, Problem};
use crate::plan;
use crate::reporting::stressed::{Counterexample, StressRun};
use crate::reporting::{Ended, RunKind};
use crate::running::pool::{self, Event, PoolOptions, Stop};
use crate::stages::Pool;
use crate::stress::package::trial::{Outcome, StressJobs};
use crate::stress::package::{
    built, generator_commands, open, reference, report, rerun_command, sizes,
};
use crate::stress::random_seed;

/// Whether `text` names a package folder (one holding `problem.yaml`).
pub fn is_package(text: &str) -> bool {
    Path::new(text).join("problem.yaml").is_file()
}

pub fn run(args: StressArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    let root = match args.problem.as_deref() {
        Some(folder) => PathBuf::from(folder),
        None => Place::find(None)?.package.ok_or_else(|| {
            anyhow!(
                "no problem given, and the current folder is in no package (no problem.yaml here \
                 or above): give a built-in problem's id (`grundy list` names them) or a package \
                 folder"
            )
        })?,
    };
    let shown_root = root.display().to_string();
    let root = absolute(&root);
    let Some(exec) = args.exec.as_deref() else {
        return Err(anyhow::anyhow!(
            "a package has no built-in solver to stress: give the program under test, e.g. \
             `grundy stress {shown_root} --exec wrong.py` (a source grundy builds, or a command)"
        )
        .into());
    };
    let (tree, package, plan) = open(&root)?;
    if package.metadata.problem_type.interactive {
        return Err(anyhow::anyhow!(
            "`{shown_root}` is an interactive problem, and stress does not play interactors yet: \
             judge the program on the package's data with `grundy verify {shown_root} \
             --submission PATH`"
        )
        .into());
    }
    let commands = generator_commands(args.generator.as_deref(), &tree, &plan)?;
    let reference = reference(&tree, &plan, &package)?;
    let limits = generator_limits(&package);
    let mut problem = Problem::from_package(package.clone());
    let isolate = args
        .isolate
        .as_deref()
        .map_or(Isolate::default(), Isolate::from_flag);
    // What its cases are judged under: runner.toml's settings where they apply, the flags over
    // them, by the rule every command follows.
    let overrides = Overrides {
        time_limit: args.time_limit,
        wall_time_limit: args.wall_time_limit,
        env: args.env.clone(),
        ..Overrides::default()
    };
    let config = super::super::setup::load_config(&args.sources, overrides.clone())?;
    let base = config.settings(&problem.name);
    super::super::setup::containment_check(isolate)?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let run = StressRun {
        problem: problem.name.clone(),
        subject: exec.to_string(),
        against: format!("/{}", reference.0),
        cases: args.cases,
        seed,
        scales: None,
        // What Ctrl-C says: the seed repeats the cases tried so far.
        rerun: rerun_command(&shown_root, seed, exec, args.generator.as_deref()),
    };
    let (mut dispatch, stages) = super::dispatcher(&args, color, Arc::clone(&cancel));
    dispatch.run_started(&RunKind::Stress(run.clone()));
    let jobs = crate::config::worker_count(args.jobs);
    let options = PoolOptions {
        fail_fast: true,
        ..dispatch.pool_options(jobs)
    };
    let building = Pool::new(
        PoolOptions {
            fail_fast: false,
            ..options.clone()
        },
        stages.clone(),
    );
    // The package's time limit by the rule every command follows.
    let time_limit = match plan::known(&problem, args.time_limit) {
        Some(known) => known,
        None => match plan::timed(
            vec![Problem::from_package(package)],
            &[judged_under(&problem, base, &overrides, None)],
            &building,
        ) {
            Ok(mut timed) => timed.remove(0),
            Err(stop) => return super::end(dispatch, Err(stop)),
        },
    };
    let time = time_limit.limit.map_err(|why| {
        anyhow!(
            "`{shown_root}` has no time limit: {why}; set limits.time_limit in its problem.yaml, \
             or stress with --time-limit MS"
        )
    })?;
    problem.submissions.clear();
    let settings = judged_under(&problem, base, &overrides, Some(time));
    let answers = problem.answers();
    let mut subject =
        super::super::given::subject(Some(exec), false, isolate, problem.memory_mib, &answers)?;
    subject.hide_answers(answers)?;

    let made = built(problem, commands, reference, limits, settings, &building);
    let (stresser, generators) = match made {
        Ok(made) => made,
        Err(stop) => return super::end(dispatch, Err(stop)),
    };
    let stresser = Arc::new(stresser);
    let generators = Arc::new(generators);
    let stress = Arc::new(StressJobs {
        stresser: Arc::clone(&stresser),
        subject,
        generators: Arc::clone(&generators),
        seed,
    });
    let cases = usize::try_from(args.cases).unwrap_or(usize::MAX);
    let bar = stages.start(&format!("{} · seed {seed}", run.problem), cases);
    let mut first_failure = None;
    let tried = pool::run_all(Arc::clone(&stress), cases, &options, |event| {
        if let Event::Finished(tried) = event {
            bar.inc(1);
            super::take(&mut dispatch, &run, &mut first_failure, tried, |tried| {
                tried.outcome.unit(tried.number, u64::from(tried.seed))
            });
        }
    });
    stages.end();
    let cancelled = || cancel.load(Ordering::SeqCst);
    if tried.is_err() || cancelled() {
        return super::end(dispatch, tried);
    }
    let Some(tried) = first_failure else {
        return super::end(dispatch, Ok(()));
    };
    let generator = &generators[tried.generator];
    let found = match tried.outcome {
        Outcome::Disagree(found) => found,
        Outcome::Broken(why) => {
            return Err(anyhow::anyhow!(
                "{why}\nthe stress run means nothing until that is fixed (case {} of `{}`)",
                tried.number,
                run.rerun
            )
            .into())
        }
        Outcome::Agree => unreachable!("agreeing cases are not kept"),
    };
    let unshrunk_input = found.input.clone();
    let args_before = generator.command.args.clone();
    let shrunk = sizes::shrink(args_before.clone(), found, sizes::BUDGET, |candidate| {
        if cancelled() {
            return Err(Stop::Cancelled);
        }
        Ok(
            match stresser.try_command(&stress.subject, generator, candidate, tried.seed)? {
                Outcome::Disagree(found) => Some(found),
                Outcome::Agree | Outcome::Broken(_) => None,
            },
        )
    });
    let shrunk = match shrunk {
        Ok(shrunk) if !cancelled() => shrunk,
        Ok(_) => return super::end(dispatch, Err(Stop::Cancelled)),
        Err(stop) => return super::end(dispatch, Err(stop)),
    };
    let counterexample = report::Counterexample {
        rerun: run.rerun.clone(),
        number: tried.number,
        unshrunk: generator.shown(&args_before, tried.seed),
        command: generator.shown(&shrunk.args, tried.seed),
        seed: tried.seed,
        reference: stresser.reference.0.clone(),
        unshrunk_input,
        shrunk,
    };
    let failure = &counterexample.shrunk.failure;
    let found = Counterexample {
        number: tried.number,
        verdict: failure.result.verdict,
        message: failure.result.message.clone(),
        input: failure.input.clone(),
        expected: failure.answer.clone(),
        output: failure.output.clone(),
        remake: counterexample.command.clone(),
        shown: counterexample.render(color),
        saved: None,
    };
    let saved = args
        .save
        .then(|| {
            report::save(
                &tree,
                &format!("stress-{}", tried.seed),
                &counterexample.shrunk.failure,
            )
        })
        .map(|saved| saved.map(|saved| saved.to_string()));
    super::found_one(dispatch, found, saved)
}
