//! `grundy add PROBLEM CASE [--input FILE] [--expect FILE | --brute]`: creates a fixture. The
//! input comes from FILE or stdin; the expected output from FILE, the brute force, or the built-in
//! solver. Nothing existing is ever overwritten, and a case the reference fails on is not written.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::{built_in, load_config};
use crate::cli::AddArgs;
use crate::config::{Config, Overrides};
use crate::discovery::is_kebab_case;
use crate::files::{write_atomic, Existing};
use crate::reporting::print;
use crate::running::run_in_process;

pub fn run(args: AddArgs) -> Result<ExitCode> {
    let config = load_config(&args.sources, Overrides::default())?;
    let new_case = NewCase::claim(&config, &args.problem, &args.case)?;
    let input = match &args.input {
        Some(path) => read(path)?,
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            bytes
        }
    };
    let expected = match &args.expect {
        Some(path) => read(path)?,
        None => {
            let reference = if args.brute {
                Reference::BruteForce
            } else {
                Reference::Solver(config.settings(&args.problem).time_limit)
            };
            reference_output(&args.problem, &input, reference)?
        }
    };
    new_case.write(&input, &expected)?;
    Ok(ExitCode::SUCCESS)
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))
}

/// Which built-in program produces an expected output.
pub enum Reference {
    /// The fast solver, under the problem's time limit.
    Solver(Duration),
    /// The brute force from the game rules; as slow as it needs to be.
    BruteForce,
}

/// The reference's output for `input`, or an error saying nothing was written.
pub fn reference_output(problem_id: &str, input: &[u8], reference: Reference) -> Result<Vec<u8>> {
    let problem = built_in(problem_id)?;
    let (solve, time_limit, what) = match reference {
        Reference::Solver(limit) => (problem.solve, limit, "built-in solver"),
        Reference::BruteForce => (problem.brute, Duration::MAX, "brute force"),
    };
    let run = run_in_process(solve, input.to_vec(), time_limit);
    match run.failure {
        None => Ok(run.output),
        Some(failure) => bail!(
            "the {what} of {} {failure}; nothing was written. Give the expected output with \
             --expect FILE if the input is right.",
            problem.id
        ),
    }
}

/// The files of a case that does not exist yet.
pub struct NewCase {
    stem: PathBuf,
}

impl NewCase {
    /// Checks the names and that no file of the case exists already.
    pub fn claim(config: &Config, problem: &str, case: &str) -> Result<NewCase> {
        if !is_kebab_case(problem) {
            bail!("problem id `{problem}` must be lowercase kebab-case, like `s-nim`");
        }
        check_case_path(case)?;
        let stem = config.fixtures.join(problem).join(case);
        // Nothing is written through a symbolic link: it may lead out of the fixtures root.
        let mut below = config.fixtures.clone();
        for part in Path::new(problem).join(case).components() {
            below.push(part);
            if below
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink())
            {
                bail!(
                    "`{}` is a symbolic link; grundy does not write through links, which may \
                     lead out of the fixtures root",
                    below.display()
                );
            }
        }
        for extension in ["in", "out", "ans"] {
            let taken = stem.with_extension(extension);
            if taken.exists() {
                bail!(
                    "`{}` already exists; refusing to overwrite it (pick another case name)",
                    taken.display()
                );
            }
        }
        Ok(NewCase { stem })
    }

    pub fn path(&self, extension: &str) -> PathBuf {
        self.stem.with_extension(extension)
    }

    /// Writes the input and the expected output, each atomically and never over an existing
    /// file, and prints their paths; on failure no half-made case is left behind.
    pub fn write(&self, input: &[u8], expected: &[u8]) -> Result<()> {
        let input_path = self.path("in");
        let expected_path = self.path("out");
        write_atomic(&input_path, input, Existing::Keep)?;
        if let Err(error) = write_atomic(&expected_path, expected, Existing::Keep) {
            let _ = std::fs::remove_file(&input_path);
            return Err(error);
        }
        print(&format!(
            "wrote {}\nwrote {}\n",
            input_path.display(),
            expected_path.display()
        ))?;
        Ok(())
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
