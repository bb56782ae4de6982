//! `grundy export PKG|CONTEST --to domjudge|kattis -o OUT`: verify first, as `grundy verify`
//! runs it (its report printed as it goes), then write each package's archive
//! ([`crate::export`]) atomically, into a temporary file beside it as it is made, then renamed:
//! a package's to `OUT`, a contest's as `OUT/<package>.zip`, one
//! per package, as DOMjudge and Kattis import a problem per zip. A package that did not verify
//! is not exported, nor is an existing file replaced, unless `--force`; the exit status is then
//! verify's (1 a package found invalid, 2 one that could not be verified all through).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use crate::cli::{ExportArgs, VerifyArgs};
use crate::commands::error::CommandError;
use crate::escape::visible_line;
use crate::export::{self, Target};
use crate::files::{write_atomic_with, Existing};
use crate::model::{packages, shown};
use crate::package::find;
use crate::reporting::{notes, Ended};

/// Why nothing was exported.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error(
        "not exported: `grundy verify` found `{0}` not valid (its report is above); fix what it \
         says, or export it anyway with --force"
    )]
    Invalid(String),
    #[error(
        "not exported: `grundy verify` could not verify all of `{0}` (its report is above); \
         export it anyway with --force"
    )]
    Unverified(String),
    #[error("`{}` already exists: choose another name, or replace it with --force", .0.display())]
    Exists(PathBuf),
}

pub fn run(args: ExportArgs, color: bool, cancel: Arc<AtomicBool>) -> Result<Ended, CommandError> {
    let found = find::find(&args.target).map_err(|error| anyhow::anyhow!("{error}"))?;
    let contest = !args.target.join("problem.yaml").is_file();
    let outputs: Vec<(PathBuf, PathBuf)> = found
        .packages
        .iter()
        .map(|package| (package.clone(), output_of(&args, package, contest)))
        .collect();
    if !args.force {
        if let Some((_, taken)) = outputs
            .iter()
            .find(|(_, out)| out.symlink_metadata().is_ok())
        {
            return Err(anyhow::Error::new(Refused::Exists(taken.clone())).into());
        }
    }
    let shown_target = shown(&args.target);
    match super::verify::run(verify_args(&args), color, cancel)? {
        Ended::Passed => {}
        Ended::Cancelled => return Ok(Ended::Cancelled),
        // A finding, as verify's own exit 1 is: said as main says an error, the status verify's.
        Ended::Failed | Ended::Protocol(_) if !args.force => {
            notes::error(visible_line(&Refused::Invalid(shown_target).to_string()));
            return Ok(Ended::Failed);
        }
        Ended::Incomplete if !args.force => {
            return Err(anyhow::Error::new(Refused::Unverified(shown_target)).into())
        }
        _ => notes::note("--force: exporting what did not verify"),
    }
    let existing = match args.force {
        true => Existing::Replace,
        false => Existing::Keep,
    };
    // Its skipped folders were noted by the verify above.
    let problems = packages(std::slice::from_ref(&args.target)).problems;
    for (package, output) in &outputs {
        // The limit verify judged with (recorded by it where computed), for DOMjudge's ini.
        let time_limit = problems
            .iter()
            .find(|problem| problem.root == crate::model::absolute(package))
            .and_then(|problem| crate::plan::known(problem, None))
            .and_then(|limit| limit.limit.ok());
        // Written into the temporary file that becomes `output`, as it is made: a package's
        // data is never held whole, and a failure on the way leaves no file.
        let made = write_atomic_with(output, existing, |file| {
            Ok(export::package(package, args.to, time_limit, file)?)
        })?;
        for path in &made.left_out {
            notes::note(format_args!(
                "{}: left out of the DOMjudge zip: DOMjudge reads a submission's \
                 expected verdict from its folder (accepted, wrong_answer, \
                 time_limit_exceeded, run_time_error)",
                visible_line(&format!("{}/{path}", shown(package)))
            ));
        }
        if made.no_statement {
            notes::note(format_args!(
                "{}: the DOMjudge zip has no statement: DOMjudge reads problem.pdf, .html \
                 or .txt at the top or in problem_statement/, and grundy does not build LaTeX; \
                 build problem_statement/problem.pdf (problemtools' problem2pdf, BAPCtools' \
                 bt pdf) and export again",
                visible_line(&shown(package))
            ));
        }
        crate::reporting::print(&format!(
            "exported {} for {}: {} ({} files)\n",
            visible_line(&shown(package)),
            match args.to {
                Target::Domjudge => "DOMjudge",
                Target::Kattis => "Kattis",
            },
            visible_line(&output.display().to_string()),
            made.entries
        ))?;
    }
    Ok(Ended::Passed)
}

/// Where a package's zip goes: `-o` itself for a package, `-o/<package>.zip` for a contest's.
fn output_of(args: &ExportArgs, package: &Path, contest: bool) -> PathBuf {
    if !contest {
        return args.output.clone();
    }
    let mut name = package.file_name().unwrap_or_default().to_os_string();
    name.push(".zip");
    args.output.join(name)
}

/// `grundy verify TARGET` as a person would run it, with export's `-j` and `--isolate`.
fn verify_args(args: &ExportArgs) -> VerifyArgs {
    VerifyArgs {
        jobs: args.jobs,
        isolate: args.isolate.clone(),
        ..VerifyArgs::of(args.target.clone())
    }
}
