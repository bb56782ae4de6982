//! A new case of a built-in problem's fixtures (`add`, `gen`, and `stress --save`'s
//! counterexample): its files claimed under names checked to stay below the fixtures root
//! ([`NewCase`]) and written through the fixture store ([`crate::files::store`]): whole or not
//! at all, never over an existing file, and two writers of one name never both succeed; and its
//! expected output from a reference ([`Reference`]: the built-in solver or the brute force),
//! never from the program under test.

use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Result};

use crate::builtin::problem as built_in;
use crate::config::Config;
use crate::discovery::{is_kebab_case, Expects, INVALID_GROUP};
use crate::files::store::{self, Writer};
use crate::reporting::{print, LostReport, Unfinished};
use crate::running::{run_in_process, Failure, TimeLimits};

/// Which built-in program produces an expected output.
#[derive(Clone, Copy, Debug)]
pub enum Reference {
    /// The fast solver, under the problem's time limit.
    Solver(Duration),
    /// The brute force from the game rules; as slow as it needs to be.
    BruteForce,
}

/// The reference's output for `input`, or an error saying nothing was written.
pub fn reference_output(problem_id: &str, input: &[u8], reference: Reference) -> Result<Vec<u8>> {
    let problem = built_in(problem_id)?;
    match reference_run(problem, input, reference) {
        Ok(output) => Ok(output),
        Err(why) => bail!(
            "{why}; nothing was written. Give the expected output with --expect FILE if the \
             input is right."
        ),
    }
}

/// The reference's output for `input`, or how the reference failed on it.
pub fn reference_run(
    problem: &grundy_problems::Problem,
    input: &[u8],
    reference: Reference,
) -> Result<Vec<u8>, ReferenceFailed> {
    let (solve, time_limit) = match reference {
        Reference::Solver(limit) => (problem.solve, TimeLimits::cpu(limit)),
        Reference::BruteForce => (problem.brute, TimeLimits::UNLIMITED),
    };
    let run = run_in_process(solve, input.to_vec(), time_limit);
    match run.failure {
        None => Ok(run.output),
        Some(failure) => Err(ReferenceFailed {
            problem: problem.id,
            reference,
            failure,
        }),
    }
}

/// A reference that made no output for an input (`the brute force of nim ...`).
#[derive(Debug, thiserror::Error)]
#[error("the {} of {problem} {failure}", match reference {
    Reference::Solver(_) => "built-in solver",
    Reference::BruteForce => "brute force",
})]
pub struct ReferenceFailed {
    pub problem: &'static str,
    pub reference: Reference,
    pub failure: Failure,
}

/// The files of a case that does not exist yet.
pub struct NewCase {
    root: PathBuf,
    stem: PathBuf,
}

/// Extensions whose files make a case exist: its input and every kind of expected file.
const CASE_FILES: [&str; 4] = ["in", "out", "ans", "err"];

impl NewCase {
    /// Checks the names and that no file of the case exists already. Checked again under the
    /// fixtures root's lock when written: this early check only spares computing an output for
    /// a name that is taken.
    pub fn claim(config: &Config, problem: &str, case: &str) -> Result<NewCase> {
        let new_case = NewCase::named(config, problem, case)?;
        new_case.require_free(false)?;
        Ok(new_case)
    }

    /// A case named `case` of `problem`, whether or not it exists.
    pub fn named(config: &Config, problem: &str, case: &str) -> Result<NewCase> {
        if !is_kebab_case(problem) {
            bail!("problem id `{problem}` must be lowercase kebab-case, like `s-nim`");
        }
        check_case_path(case)?;
        if Expects::of(case) == Expects::Rejection {
            bail!(
                "case `{case}` is in an `{INVALID_GROUP}/` group, whose cases expect the \
                 solver's error message rather than an output: write the input there and run \
                 `grundy check {problem}/{case} --bless`"
            );
        }
        let relative = Path::new(problem).join(case);
        // Nothing is written through a symbolic link: it may lead out of the fixtures root.
        store::require_plain_path(&config.fixtures, &relative)?;
        Ok(NewCase {
            root: config.fixtures.clone(),
            stem: config.fixtures.join(relative),
        })
    }

    pub fn path(&self, extension: &str) -> PathBuf {
        self.stem.with_extension(extension)
    }

    /// An error naming the first file of the case (and its recipe, `with_recipe`) that exists.
    fn require_free(&self, with_recipe: bool) -> Result<()> {
        let recipe = with_recipe.then_some("gen");
        for extension in CASE_FILES.into_iter().chain(recipe) {
            store::require_free(&self.path(extension))?;
        }
        Ok(())
    }

    /// Whether any file of the case, or a `.gen` recipe, stands already.
    pub fn taken(&self) -> Result<bool> {
        for extension in CASE_FILES.into_iter().chain(["gen"]) {
            if store::entry(&self.path(extension))? != crate::files::Entry::Missing {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Writes the input, the expected output and, for a generated case, its `.gen` recipe under
    /// the fixtures root's lock, all or nothing and never over an existing file, and prints
    /// their paths.
    pub fn write(
        &self,
        input: &[u8],
        expected: &[u8],
        recipe: Option<&[u8]>,
    ) -> Result<(), Unfinished> {
        let writer = Writer::open(&self.root)?;
        self.write_with(&writer, input, expected, recipe)?;
        drop(writer);
        Ok(self.print_written(recipe.is_some())?)
    }

    /// [`NewCase::write`] for a writer that holds the lock already; prints nothing.
    pub fn write_with(
        &self,
        writer: &Writer,
        input: &[u8],
        expected: &[u8],
        recipe: Option<&[u8]>,
    ) -> Result<()> {
        // The early check in `claim` may be stale: another grundy may have written since.
        self.require_free(recipe.is_some())?;
        let (input_path, expected_path, recipe_path) =
            (self.path("in"), self.path("out"), self.path("gen"));
        let mut files = vec![
            (input_path.as_path(), input),
            (expected_path.as_path(), expected),
        ];
        files.extend(recipe.map(|recipe| (recipe_path.as_path(), recipe)));
        writer.create(&files)
    }

    /// `wrote <path>` for each file of the case, printed.
    pub fn print_written(&self, with_recipe: bool) -> Result<(), LostReport> {
        print(&self.written(with_recipe))
    }

    /// `wrote <path>` for each file of the case, a line each.
    pub fn written(&self, with_recipe: bool) -> String {
        let recipe = with_recipe.then_some("gen");
        ["in", "out"]
            .into_iter()
            .chain(recipe)
            .map(|extension| format!("wrote {}\n", self.path(extension).display()))
            .collect()
    }
}

fn check_case_path(case: &str) -> Result<()> {
    let path = Path::new(case);
    let plain = !case.is_empty()
        && path.components().all(|c| matches!(c, Component::Normal(_)))
        && !case.ends_with('/');
    if !plain {
        bail!(
            "case `{case}` must be a relative path below the problem folder, like `large/max-n` \
             (no `..`, no absolute path)"
        );
    }
    if matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("in" | "out" | "ans")
    ) {
        bail!(
            "give the case without extension: `{}`",
            path.with_extension("").display()
        );
    }
    Ok(())
}
