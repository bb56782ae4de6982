//! Stress on any Kattis package, no Rust needed. Inputs come from the package's generators
//! ([`generator_commands`]: each `generate:` command of `generators.yaml` taking `{seed}`, in
//! turn, or `--generator`), each case on a seed derived from the run's seed; every input must
//! pass the package's input validators; the reference solution ([`reference`]:
//! generators.yaml's `solution:`, else the first accepted submission) writes the answer, and the
//! program under test is judged on it by the package's output validator ([`trial`]). The first
//! failing case (in case order) is shrunk where the generator takes a size ([`sizes`]), shown,
//! and with `--save` written into the package ([`report`]). The run itself (flags, building,
//! the pool, the exit code) is `commands::stress::package`'s.

pub mod report;
pub mod sizes;
pub mod trial;

use std::collections::BTreeSet;

use anyhow::{anyhow, bail, Context, Result};
use grundy_sandbox::Program as Command;

use crate::generation::programs::{default_solution, generator, given_solution};

use std::sync::Arc;

use crate::build::{Build, BuildJobs, Builds};
use crate::config::Settings;
use crate::discovery::Case;
use crate::files::beneath::{Scope, Tree, TreePath};
use crate::generation::{read_plan, ReadPlan};
use crate::limits::Limits;
use crate::model::{Problem, TestCase};
use crate::package::generators::{self, Plan, Solution, Source};
use crate::package::programs::Program;
use crate::package::{load_package, Package};
use crate::running::pool::Stop;
use crate::stages::Pool;
use crate::validation::checkers::checker_for;
use trial::{Generator, Stresser};

/// The package at `root` and its generators.yaml's plan (an empty plan when it has none).
pub fn open(root: &std::path::Path) -> Result<ReadPlan> {
    if generators::file_of(root).is_file() {
        return Ok(read_plan(root)?);
    }
    let tree = Tree::open(root, Scope::Package).map_err(|e| anyhow!("{e}"))?;
    let package = load_package(root).map_err(|e| anyhow!("{e}"))?;
    Ok((tree, package, Plan::default()))
}

/// Each distinct `generate:` command of `plan` that takes `{seed}`, in the plan's order.
pub fn seeded_commands(plan: &Plan) -> Vec<generators::Command> {
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

/// The generator commands a run takes its inputs from, with their programs: `--generator`'s,
/// else each distinct `generate:` command of the plan that takes `{seed}`.
pub fn generator_commands(
    given: Option<&str>,
    tree: &Tree,
    plan: &Plan,
) -> Result<Vec<(generators::Command, Program)>> {
    let commands = match given {
        Some(text) => vec![command_of(text)?],
        None => seeded_commands(plan),
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
pub fn command_of(text: &str) -> Result<generators::Command> {
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
pub fn reference(tree: &Tree, plan: &Plan, package: &Package) -> Result<(String, Program)> {
    let given = plan.cases.iter().find_map(|case| match &case.source {
        Source::Rule(rule) => match &rule.solution {
            Solution::Given(path) => Some(path.clone()),
            _ => None,
        },
        Source::Included(_) => None,
    });
    if let Some(path) = given {
        let program = given_solution(tree, &path)
            .map_err(|why| anyhow!("the solution generators.yaml names, `/{path}`, {why}"))?;
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
pub fn ready(builds: &Builds, program: &Program, what: &str) -> Result<Command> {
    match builds.of(program) {
        Build::Ready { command, .. } => Ok(command.clone()),
        Build::Failed(message) => bail!("{what} does not compile:\n{message}"),
        Build::Skipped(why) => bail!("{what} cannot be built here: {why}"),
        Build::HostError(error) => bail!("{what} cannot be built: {error}"),
    }
}

/// A package's stress run made ready on `pool`: its validators, the generators of `commands`
/// and the `reference` solution (its path from the package root, its program) built, and the
/// [`Stresser`] that tries each case with them, the program under test run with `settings`
/// and the generators and reference with `limits`.
pub fn built(
    problem: Problem,
    commands: Vec<(generators::Command, Program)>,
    reference: (String, Program),
    limits: Limits,
    settings: Settings,
    pool: &Pool,
) -> Result<(Stresser, Vec<Generator>), Stop> {
    let validators = Arc::new(BuildJobs::validators([&problem]));
    let built = pool.run(
        Arc::clone(&validators),
        validators.len(),
        "building validators",
    )?;
    let builds = validators.collect(built);
    let mut programs: Vec<Program> = commands.iter().map(|(_, p)| p.clone()).collect();
    programs.push(reference.1.clone());
    let others = Arc::new(BuildJobs::of_programs(&problem, programs));
    let built = pool.run(Arc::clone(&others), others.len(), "building generators")?;
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
    let stresser = Stresser {
        problem,
        builds,
        generator_limits: limits,
        reference: (reference.0, reference_command),
        settings,
        checker,
        template,
    };
    Ok((stresser, generators))
}

/// The case whose settings a stress case has: the first secret case (its group's validator
/// arguments and output validator flags), else the first case, else the package's defaults.
pub fn template(problem: &Problem) -> TestCase {
    let secret = problem.cases.iter().find(|c| c.id().starts_with("secret/"));
    if let Some(case) = secret.or(problem.cases.first()) {
        return case.clone();
    }
    TestCase {
        case: stress_case(problem, TreePath::in_memory("stress.in")),
        output: None,
        input_validator_args: Default::default(),
        output_validator_args: vec![],
        default_validator: None,
    }
}

/// The case `problem/stress` of a stress input at `input`, judged by what it outputs.
pub fn stress_case(problem: &Problem, input: TreePath) -> Case {
    Case::of_package(
        format!("{}/stress", problem.name),
        problem.name.clone(),
        input,
        None,
    )
}

/// `grundy stress PKG --seed S --exec 'PROGRAM' [--generator 'GEN']`: the run again.
pub fn rerun_command(root: &str, seed: u64, exec: &str, generator: Option<&str>) -> String {
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
