//! `grundy gen PROBLEM CASE --seed S --scale N`: a reproducible generated fixture. The input comes
//! from the problem's seeded generator, the expected output from its brute force (never from the
//! solver under test), and the command that made them is recorded beside them as `<case>.gen`;
//! the three files appear together or not at all.

use anyhow::Result;

use super::setup::{built_in, load_config};
use crate::cli::GenArgs;
use crate::commands::error::CommandError;
use crate::config::Overrides;
use crate::new_case::{reference_output, NewCase, Reference};
use crate::reporting::Ended;

pub fn run(args: GenArgs) -> Result<Ended, CommandError> {
    let problem = built_in(&args.problem)?;
    let config = load_config(&args.sources, Overrides::default())?;
    let new_case = NewCase::claim(&config, problem.id, &args.case)?;
    // Without --seed a fresh one, recorded in the recipe so the case can be rebuilt.
    let seed = args.seed.unwrap_or_else(crate::stress::random_seed);
    let input = (problem.generate)(seed, args.scale.0);
    let expected = reference_output(problem.id, &input, Reference::BruteForce)?;
    let recipe = format!(
        "grundy gen {} {} --seed {seed} --scale {}\n",
        problem.id, args.case, args.scale
    );
    new_case.write(&input, &expected, Some(recipe.as_bytes()))?;
    Ok(Ended::Passed)
}
