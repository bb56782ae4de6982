//! `grundy stress PKG --exec PROGRAM`: the front-end of [`crate::stress::package`], stress on
//! any Kattis package, no Rust needed: the package, its generators and reference solution
//! found and built, the program under test contained, the cases tried on the pool, the first
//! failing one shrunk where the generator takes a size, shown, and with `--save` written into
//! the package. Exit 0 when every case agrees, 1 on a counterexample, 2 when the run cannot
//! mean anything (a generator, validator or reference at fault).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Result};

use crate::build::BuildJobs;
use crate::cli::StressArgs;
use crate::commands::error::CommandError;
use crate::config::{Isolate, Settings};
use crate::files::beneath::{Scope, Tree};
use crate::generation::{limits as generator_limits, read_plan};
use crate::limits::Limits;
use crate::locate::Place;
use crate::model::{absolute, Problem};
use crate::package::generators::{self, Plan};
use crate::package::load_package;
use crate::package::programs::Program;
use crate::plan;
use crate::reporting::{print, progress_bar, Stages};
use crate::running::pool::{self, Event, PoolOptions, Stop};
use crate::stages::Pool;
use crate::stress::package::trial::{Generator, Outcome, StressJobs, Stresser};
use crate::stress::package::{
    generator_commands, ready, reference, report, rerun_command, sizes, template,
};
use crate::stress::random_seed;
use crate::validation::checkers::checker_for;

/// Whether `text` names a package folder (one holding `problem.yaml`).
pub fn is_package(text: &str) -> bool {
    Path::new(text).join("problem.yaml").is_file()
}

pub fn run(args: StressArgs, color: bool) -> Result<ExitCode, CommandError> {
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
    let (tree, package, plan) = if generators::file_of(&root).is_file() {
        read_plan(&root)?
    } else {
        let tree = Tree::open(&root, Scope::Package).map_err(|e| anyhow!("{e}"))?;
        let package = load_package(&root).map_err(|e| anyhow!("{e}"))?;
        (tree, package, Plan::default())
    };
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
    super::super::setup::containment_check(isolate)?;
    let cancel = Arc::new(AtomicBool::new(false));
    super::super::setup::on_ctrl_c(&cancel);
    let jobs = crate::config::worker_count(args.jobs);
    let options = PoolOptions {
        jobs,
        fail_fast: true,
        cancel: Arc::clone(&cancel),
    };
    let building = Pool::new(
        PoolOptions {
            fail_fast: false,
            ..options.clone()
        },
        Stages::new(true, color),
    );
    // The package's time limit by the rule every command follows.
    let time_limit = match plan::known(&problem, args.time_limit) {
        Some(known) => known,
        None => plan::timed(vec![Problem::from_package(package)], &building)?.remove(0),
    };
    let time = time_limit.limit.map_err(|why| {
        anyhow!(
            "`{shown_root}` has no time limit: {why}; set limits.time_limit in its problem.yaml, \
             or stress with --time-limit MS"
        )
    })?;
    problem.submissions.clear();
    let settings = Settings {
        limits: Limits {
            time,
            wall: args.wall_time_limit,
            memory_mib: problem.memory_mib,
            output_mib: problem.output_mib,
            passes: problem.passes,
            ..Limits::default()
        },
        env: args.env.clone(),
        ..Settings::default()
    };
    let answers = problem.answers();
    let mut subject =
        super::super::given::subject(Some(exec), false, isolate, problem.memory_mib, &answers)?;
    subject.hide_answers(answers)?;

    let validators = Arc::new(BuildJobs::validators([&problem]));
    let built = building.run(
        Arc::clone(&validators),
        validators.len(),
        "building validators",
    )?;
    let builds = validators.collect(built);
    let mut programs: Vec<Program> = commands.iter().map(|(_, p)| p.clone()).collect();
    programs.push(reference.1.clone());
    let others = Arc::new(BuildJobs::of_programs(&problem, programs));
    let built = building.run(Arc::clone(&others), others.len(), "building generators")?;
    let others = others.collect(built);
    let mut generators = vec![];
    for (command, program) in commands {
        let what = format!("generator `{}`", command.program);
        let program = ready(&others, &program, &what)?;
        generators.push(Generator { command, program });
    }
    let reference_command = ready(&others, &reference.1, &format!("`/{}`", reference.0))?;
    let template = template(&problem);
    let checker = checker_for(&problem, &builds, &template).map_err(|e| anyhow!("{e}"))?;
    let stresser = Arc::new(Stresser {
        problem,
        builds,
        generator_limits: limits,
        reference: (reference.0, reference_command),
        subject,
        settings,
        checker,
        template,
    });

    let seed = args.seed.unwrap_or_else(random_seed);
    let rerun = rerun_command(&shown_root, seed, exec, args.generator.as_deref());
    let generators = Arc::new(generators);
    let stress = Arc::new(StressJobs {
        stresser: Arc::clone(&stresser),
        generators: Arc::clone(&generators),
        seed,
    });
    let bar = progress_bar(Some(args.cases), color);
    bar.set_message(format!("{} · seed {seed}", stresser.problem.name));
    let started = Instant::now();
    let cases = usize::try_from(args.cases).unwrap_or(usize::MAX);
    let mut first_failure = None;
    let tried = pool::run_all(stress, cases, &options, |event| {
        if let Event::Finished(Some(tried)) = event {
            bar.inc(1);
            if first_failure.is_none() && !matches!(tried.outcome, Outcome::Agree) {
                first_failure = Some(tried);
            }
        }
    });
    bar.finish_and_clear();
    if cancel.load(Ordering::SeqCst) {
        eprintln!("\ninterrupted; `{rerun}` repeats this run");
        return Err(CommandError::Cancelled);
    }
    tried?;
    let name = &stresser.problem.name;
    let Some(tried) = first_failure else {
        print(&format!(
            "stress {name}: {} cases, all agree with /{} ({:.2}s, seed {seed})\n",
            args.cases,
            stresser.reference.0,
            started.elapsed().as_secs_f64()
        ))?;
        return Ok(ExitCode::SUCCESS);
    };
    let generator = &generators[tried.generator];
    let found = match tried.outcome {
        Outcome::Disagree(found) => found,
        Outcome::Broken(why) => {
            return Err(anyhow::anyhow!(
                "{why}\nthe stress run means nothing until that is fixed (case {} of `{rerun}`)",
                tried.number
            )
            .into())
        }
        Outcome::Agree => unreachable!("agreeing cases are not kept"),
    };
    let unshrunk_input = found.input.clone();
    let args_before = generator.command.args.clone();
    let shrunk = sizes::shrink(args_before.clone(), found, sizes::BUDGET, |candidate| {
        if cancel.load(Ordering::SeqCst) {
            return Err(Stop::Cancelled);
        }
        Ok(
            match stresser.try_command(generator, candidate, tried.seed)? {
                Outcome::Disagree(found) => Some(found),
                Outcome::Agree | Outcome::Broken(_) => None,
            },
        )
    });
    if cancel.load(Ordering::SeqCst) {
        eprintln!("\ninterrupted; `{rerun}` repeats this run");
        return Err(CommandError::Cancelled);
    }
    let shrunk = shrunk?;
    let counterexample = report::Counterexample {
        rerun,
        number: tried.number,
        unshrunk: generator.shown(&args_before, tried.seed),
        command: generator.shown(&shrunk.args, tried.seed),
        seed: tried.seed,
        reference: stresser.reference.0.clone(),
        unshrunk_input,
        shrunk,
    };
    print(&counterexample.render(color))?;
    if args.save {
        let said = report::save(&tree, tried.seed, &counterexample.shrunk.failure)?;
        print(&format!("{said}\n"))?;
    }
    print(&format!(
        "stress {name}: case {} of {} fails ({:.2}s, seed {seed})\n",
        tried.number,
        args.cases,
        started.elapsed().as_secs_f64()
    ))?;
    Ok(ExitCode::FAILURE)
}
