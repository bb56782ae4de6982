//! `grundy add PROBLEM CASE [--input FILE] [--expect FILE]`: creates a fixture. The input comes
//! from FILE or stdin; the expected output from FILE or the built-in solver. Nothing existing is
//! ever overwritten, and a case the solver fails on is not written at all.

use std::io::Read;
use std::path::{Component, Path};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use super::{built_in, load_config};
use crate::cli::AddArgs;
use crate::config::Overrides;
use crate::discovery::is_kebab_case;
use crate::files::{write_atomic, Existing};
use crate::running::run_in_process;

pub fn run(args: AddArgs) -> Result<ExitCode> {
    if !is_kebab_case(&args.problem) {
        bail!("problem id `{}` must be lowercase kebab-case, like `s-nim`", args.problem);
    }
    check_case_path(&args.case)?;
    let config = load_config(&args.sources, Overrides::default())?;
    let stem = config.fixtures.join(&args.problem).join(&args.case);
    let input_path = stem.with_extension("in");
    for taken in [&input_path, &stem.with_extension("out"), &stem.with_extension("ans")] {
        if taken.exists() {
            bail!("`{}` already exists; refusing to overwrite it (pick another case name)", taken.display());
        }
    }
    let input = match &args.input {
        Some(path) => std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?,
        None => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
            bytes
        }
    };
    let expected = match &args.expect {
        Some(path) => std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?,
        None => {
            let problem = built_in(&args.problem)?;
            let time_limit = config.settings(&args.problem).time_limit;
            let run = run_in_process(problem.solve, input.clone(), time_limit);
            if let Some(failure) = run.failure {
                bail!(
                    "the built-in {} solver failed on this input: {failure}; nothing was written. \
                     Give the expected output with --expect FILE if the input is right.",
                    problem.id
                );
            }
            run.output
        }
    };
    let expected_path = stem.with_extension("out");
    write_atomic(&input_path, &input, Existing::Keep)?;
    if let Err(error) = write_atomic(&expected_path, &expected, Existing::Keep) {
        // Leave no half-made case behind: an input without its expected file.
        let _ = std::fs::remove_file(&input_path);
        return Err(error);
    }
    println!("wrote {}", input_path.display());
    println!("wrote {}", expected_path.display());
    Ok(ExitCode::SUCCESS)
}

fn check_case_path(case: &str) -> Result<()> {
    let path = Path::new(case);
    let plain = !case.is_empty()
        && path.components().all(|c| matches!(c, Component::Normal(_)))
        && !case.ends_with('/');
    if !plain {
        bail!("case `{case}` must be a relative path below the problem folder, like `large/max-n` (no `..`, no absolute path)");
    }
    if matches!(path.extension().and_then(|e| e.to_str()), Some("in" | "out" | "ans")) {
        bail!("give the case without extension: `{}`", path.with_extension("").display());
    }
    Ok(())
}

