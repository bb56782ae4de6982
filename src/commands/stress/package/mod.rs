//! `grundy stress PKG --exec PROGRAM`: stress on any Kattis package, no Rust needed. Inputs come
//! from the package's generators (each `generate:` command of `generators.yaml` taking
//! `{seed}`, in turn, or `--generator`), each case on a seed derived from the run's seed; every
//! input must pass the package's input validators; the reference solution (generators.yaml's
//! `solution:`, else the first accepted submission) writes the answer, and the program under
//! test is judged on it by the package's output validator. The first failing case (in case
//! order) is shrunk where the generator takes a size ([`sizes`]), shown, and with `--save`
//! written into the package ([`report`]). Exit 0 when every case agrees, 1 on a counterexample,
//! 2 when the run cannot mean anything (a generator, validator or reference at fault).

mod report;
mod sizes;
mod trial;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use grundy_sandbox::Program as Command;

use super::super::generate::programs::{default_solution, generator, given_solution};
use super::super::generate::{limits as generator_limits, read_plan};
use crate::build::{Build, BuildJobs, Builds};
use crate::cli::StressArgs;
use crate::config::{Isolate, Settings};
use crate::files::beneath::{Scope, Tree};
use crate::locate::Place;
use crate::model::{absolute, Problem, TestCase};
use crate::package::generators::{self, Plan, Solution, Source};
use crate::package::programs::Program;
use crate::package::{load_package, Package};
use crate::reporting::{print, progress_bar, Stages};
use crate::running::pool::{self, Cancelled, Event, PoolOptions};
use crate::stages::Pool;
use crate::validation::checkers::checker_for;
use trial::{Generator, Outcome, StressJobs, Stresser};

/// Whether `text` names a package folder (one holding `problem.yaml`).
pub fn is_package(text: &str) -> bool {
    Path::new(text).join("problem.yaml").is_file()
}

pub fn run(args: StressArgs, color: bool) -> Result<ExitCode> {
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
        bail!(
            "a package has no built-in solver to stress: give the program under test, e.g. \
             `grundy stress {shown_root} --exec wrong.py` (a source grundy builds, or a command)"
        );
    };
    let (tree, package, plan) = if generators::file_of(&root).is_file() {
        read_plan(&root)?
    } else {
        let tree = Tree::open(&root, Scope::Package).map_err(|e| anyhow!("{e}"))?;
        let package = load_package(&root).map_err(|e| anyhow!("{e}"))?;
        (tree, package, Plan::default())
    };
    if package.metadata.problem_type.interactive {
        bail!(
            "`{shown_root}` is an interactive problem, and stress does not play interactors yet: \
             judge the program on the package's data with `grundy verify {shown_root} \
             --submission PATH`"
        );
    }
    let commands = generator_commands(args.generator.as_deref(), &tree, &plan)?;
    let reference = reference(&tree, &plan, &package)?;
    let limits = generator_limits(&package);
    let mut problem = Problem::from_package(package);
    problem.submissions.clear();
    let settings = Settings {
        time_limit: args
            .time_limit
            .map(Duration::from_millis)
            .or(problem.limits.time_limit)
            .unwrap_or(Settings::default().time_limit),
        wall_time_limit: args.wall_time_limit.map(Duration::from_millis),
        memory_limit_mb: problem.memory_mib,
        output_limit_mb: problem.output_mib,
        validation_passes: problem.passes,
        env: args.env.clone(),
        ..Settings::default()
    };
    let isolate = args
        .isolate
        .as_deref()
        .map_or(Isolate::default(), Isolate::from_flag);
    super::super::containment_check(isolate)?;
    let answers = problem.answers();
    let mut subject =
        super::super::given::subject(Some(exec), false, isolate, problem.memory_mib, &answers)?;
    subject.hide_answers(answers)?;

    let cancel = Arc::new(AtomicBool::new(false));
    super::super::on_ctrl_c(&cancel);
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

    let seed = args.seed.unwrap_or_else(super::random_seed);
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
        return Err(Cancelled.into());
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
        Outcome::Broken(why) => bail!(
            "{why}\nthe stress run means nothing until that is fixed (case {} of `{rerun}`)",
            tried.number
        ),
        Outcome::Agree => unreachable!("agreeing cases are not kept"),
    };
    let unshrunk_input = found.input.clone();
    let args_before = generator.command.args.clone();
    let shrunk = sizes::shrink(args_before.clone(), found, sizes::BUDGET, |candidate| {
        if cancel.load(Ordering::SeqCst) {
            return Err(Cancelled.into());
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
        return Err(Cancelled.into());
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

/// The generator commands a run takes its inputs from, with their programs: `--generator`'s,
/// else each distinct `generate:` command of the plan that takes `{seed}`.
fn generator_commands(
    given: Option<&str>,
    tree: &Tree,
    plan: &Plan,
) -> Result<Vec<(generators::Command, Program)>> {
    let commands = match given {
        Some(text) => vec![command_of(text)?],
        None => {
            let mut seen = BTreeSet::new();
            let rules = plan.cases.iter().filter_map(|case| match &case.source {
                Source::Rule(rule) => rule.generate.as_ref(),
                Source::Included(_) => None,
            });
            rules
                .filter(|command| command.uses_seed && seen.insert(command.text.clone()))
                .cloned()
                .collect()
        }
    };
    if commands.is_empty() {
        bail!(
            "no generator takes `{{seed}}`: generators/generators.yaml has no `generate:` command \
             with `{{seed}}` among its arguments; give one, e.g. --generator 'gen.py {{seed}} 10' \
             (a program in generators/)"
        );
    }
    commands
        .into_iter()
        .map(|command| {
            let program =
                generator(tree, plan, &command.program).map_err(|why| anyhow!("{why}"))?;
            Ok((command, program))
        })
        .collect()
}

/// `--generator`'s text as a command: its first word the program (in generators/), the rest
/// its arguments, `{seed}` among them.
fn command_of(text: &str) -> Result<generators::Command> {
    let words = shell_words::split(text)
        .with_context(|| format!("cannot split --generator '{text}' into words"))?;
    let Some((program, args)) = words.split_first() else {
        bail!("--generator is empty: give a generator and its arguments, e.g. --generator 'gen.py {{seed}} 10'");
    };
    if generators::seed_count(text) == 0 {
        bail!(
            "--generator '{text}' takes no `{{seed}}`, so every case would get the same input: \
             put `{{seed}}` among its arguments, e.g. --generator '{program} {{seed}} 10'"
        );
    }
    Ok(generators::Command {
        text: text.trim().to_string(),
        program: program.clone(),
        args: args.to_vec(),
        seed: 0,
        uses_seed: true,
    })
}

/// The reference solution: the first `solution:` generators.yaml gives, else the first accepted
/// submission, as its path from the package root and its program.
fn reference(tree: &Tree, plan: &Plan, package: &Package) -> Result<(String, Program)> {
    let given = plan.cases.iter().find_map(|case| match &case.source {
        Source::Rule(rule) => match &rule.solution {
            Solution::Given(path) => Some(path.clone()),
            _ => None,
        },
        Source::Included(_) => None,
    });
    if let Some(path) = given {
        let program = given_solution(tree, &path)
            .map_err(|why| anyhow!("the solution generators.yaml names: {why}"))?;
        return Ok((path, program));
    }
    default_solution(package).ok_or_else(|| {
        anyhow!(
            "`{}` has no accepted submission to write the expected answers, and generators.yaml \
             names no `solution:`: put a correct solution in submissions/accepted/",
            package.name
        )
    })
}

/// The command of a built program, or why there is none (`what` names it).
fn ready(builds: &Builds, program: &Program, what: &str) -> Result<Command> {
    match builds.of(program) {
        Build::Ready { command, .. } => Ok(command.clone()),
        Build::Failed(message) => bail!("{what} does not compile:\n{message}"),
        Build::Skipped(why) => bail!("{what} cannot be built here: {why}"),
        Build::HostError(error) => bail!("{what} cannot be built: {error}"),
    }
}

/// The case whose settings a stress case has: the first secret case (its group's validator
/// arguments and output validator flags), else the first case, else the package's defaults.
fn template(problem: &Problem) -> TestCase {
    let secret = problem.cases.iter().find(|c| c.id.starts_with("secret/"));
    if let Some(case) = secret.or(problem.cases.first()) {
        return case.clone();
    }
    TestCase {
        id: "stress".into(),
        input: crate::files::beneath::TreePath::in_memory("stress.in"),
        answer: None,
        output: None,
        input_validator_args: Default::default(),
        output_validator_args: vec![],
        constraints: grundy_problems::Constraints::Original,
        default_validator: None,
    }
}

/// `grundy stress PKG --seed S --exec 'PROGRAM' [--generator 'GEN']`: the run again.
fn rerun_command(root: &str, seed: u64, exec: &str, generator: Option<&str>) -> String {
    let mut command = format!(
        "grundy stress {} --seed {seed} --exec {}",
        shell_words::quote(root),
        shell_words::quote(exec)
    );
    if let Some(generator) = generator {
        command += &format!(" --generator {}", shell_words::quote(generator));
    }
    command
}
