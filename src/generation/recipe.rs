//! The command of a case in a built-in problem's `generators.yaml`: `gen --seed S --scale N`,
//! the problem's own Rust generator (what `grundy gen` runs) with `grundy gen`'s flags, read
//! into a [`Recipe`]. `{seed}` is the seed `generators.yaml` derives for the command, as for a
//! package's generator. Reads the command only; [`super::fixtures`] runs it.

use super::scale::{Scale, ScaleError};
use crate::package::generators::Command;
use crate::suggest::did_you_mean;

/// The program a built-in problem's `generate:` command names: its Rust generator.
pub const PROGRAM: &str = "gen";

/// The flags `gen` takes, as `grundy gen` spells them (`--size` is `--scale`, as there).
const FLAGS: [&str; 3] = ["--seed", "--scale", "--size"];

/// What one input is made from: the generator's seed and scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub seed: u64,
    pub scale: Scale,
}

/// The recipe of attempt `retry` (0 first; `{seed}` stands for the next seed on each) of a
/// `generate:` command, or what is wrong with it. The seed must be given: a case made from a
/// seed nobody wrote down could not be made again. The scale is `medium` unless given, as for
/// `grundy gen`.
pub fn read(command: &Command, retry: u32) -> Result<Recipe, RecipeError> {
    if command.program != PROGRAM {
        return Err(RecipeError::NotGen {
            program: command.program.clone(),
        });
    }
    let mut seed = None;
    let mut scale = Scale(1000);
    let arguments = command.arguments("", retry);
    let mut words = arguments.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (word.as_str(), None),
        };
        if !FLAGS.contains(&flag) {
            return Err(RecipeError::UnknownFlag {
                word: word.clone(),
                flag: flag.to_string(),
            });
        }
        let Some(value) = inline.or_else(|| words.next().cloned()) else {
            return Err(RecipeError::NoValue(flag.to_string()));
        };
        if flag == "--seed" {
            let number = value
                .parse::<u64>()
                .map_err(|_| RecipeError::Seed(value.clone()))?;
            seed = Some(number);
        } else {
            scale = value.parse::<Scale>()?;
        }
    }
    let seed = seed.ok_or_else(|| RecipeError::NoSeed(command.text.clone()))?;
    Ok(Recipe { seed, scale })
}

/// What is wrong with a built-in problem's `generate:` command.
#[derive(Debug, thiserror::Error)]
pub enum RecipeError {
    /// It names another program than `gen`.
    #[error(
        "`{program}` is not a generator of a built-in problem: its generator is `{PROGRAM}` \
         (`{PROGRAM} --seed S --scale N`, as `grundy gen` takes them){}",
        did_you_mean(program, [PROGRAM].into_iter())
    )]
    NotGen { program: String },
    /// A word that is none of `gen`'s flags (the word, and its flag before any `=`).
    #[error(
        "`{PROGRAM}` takes --seed S and --scale N, not `{word}`{}",
        did_you_mean(flag, FLAGS.into_iter())
    )]
    UnknownFlag { word: String, flag: String },
    #[error("`{0}` needs a value")]
    NoValue(String),
    #[error("seed `{0}` must be a whole number from 0 to {max}", max = u64::MAX)]
    Seed(String),
    #[error(transparent)]
    Scale(#[from] ScaleError),
    /// The command's text, which gives no seed.
    #[error(
        "`{0}` gives no --seed: a fixture is made again from its seed (write `--seed 7`, or \
         `--seed {{seed}}` for one derived from the command)"
    )]
    NoSeed(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::generators::{parse, Context, Source};
    use std::path::Path;

    /// The command of the one case of a fixtures plan whose case is `generate: <text>`.
    fn command(text: &str) -> Command {
        let yaml = format!("data:\n  random:\n    data:\n      a:\n        generate: {text}\n");
        let context = Context {
            fixtures: true,
            ..Context::default()
        };
        let plan = parse(Path::new("generators.yaml"), &yaml, &context).unwrap();
        match &plan.cases[0].source {
            Source::Rule(rule) => rule.generate.clone().unwrap(),
            Source::Included(_) => unreachable!("no include in the plan"),
        }
    }

    #[test]
    fn the_flags_of_grundy_gen() {
        assert_eq!(
            read(&command("gen --seed 101 --scale 8"), 0).unwrap(),
            Recipe {
                seed: 101,
                scale: Scale(8)
            }
        );
        assert_eq!(
            read(&command("gen --size=max --seed=3"), 0).unwrap(),
            Recipe {
                seed: 3,
                scale: Scale(u64::MAX)
            }
        );
        assert_eq!(
            read(&command("gen --seed 5"), 0).unwrap().scale,
            Scale(1000)
        );
    }

    #[test]
    fn seed_stands_for_the_derived_seed_and_the_next_one_on_a_retry() {
        let command = command("gen --seed {seed} --scale small");
        let first = read(&command, 0).unwrap();
        assert_eq!(first.seed, u64::from(command.seed));
        assert_eq!(read(&command, 1).unwrap().seed, first.seed + 1);
    }

    #[test]
    fn what_is_wrong_is_said_with_a_hint() {
        let wrong = |text: &str| read(&command(text), 0).unwrap_err().to_string();
        assert!(wrong("generator --seed 1").contains("(did you mean `gen`?)"));
        assert!(wrong("gen --sed 1").contains("(did you mean `--seed`?)"));
        assert!(wrong("gen --scale 8").contains("gives no --seed"));
        assert!(wrong("gen --seed x").contains("whole number"));
        assert!(wrong("gen --seed 1 --scale huge").contains("small, medium, max"));
        assert!(wrong("gen --seed").contains("needs a value"));
    }
}
