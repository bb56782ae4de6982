//! What generating finds that is not as it should be, kept as types until the report prints
//! them ([`super::report`]): why a case or a file was not made ([`Unmade`]), for a
//! package's cases and a built-in problem's alike (a package's case: [`MakeError`], its
//! generator or solution run: [`RunFailed`]), and what is worth a warning ([`Warning`]: a
//! `match:` pattern [`Missed`], among others).

use std::path::PathBuf;

use grundy_problems::{Constraints, InputError};
use grundy_sandbox::SpawnError;

use super::programs::NoProgram;
use super::recipe::RecipeError;
use crate::files::beneath::OpenError;
use crate::files::WriteError;
use crate::new_case::ReferenceFailed;
use crate::package::generators::Match;
use crate::package::yaml::Diagnostic;
use crate::reporting::findings::Unchecked;
use crate::running::Failure;

/// A plan that cannot be used: its located errors, a line each.
#[derive(Debug, thiserror::Error)]
#[error("{}", crate::reporting::findings::lines(.0).join("\n"))]
pub struct PlanErrors(pub Vec<Diagnostic>);

/// Why a case (or a group's file) was not made or written.
#[derive(Debug, thiserror::Error)]
pub enum Unmade {
    /// A package's case: its generator or solution, a file it copies or links.
    #[error(transparent)]
    Make(#[from] MakeError),
    /// A built-in problem's case whose `generate:` command is not one of `gen`'s.
    #[error(transparent)]
    Recipe(#[from] RecipeError),
    /// A built-in problem's generator made an input its validator rejects, on every attempt.
    #[error(
        "`{command}` made an input that breaks the {} limits ({error}); nothing was written",
        match constraints {
            Constraints::Original => "original",
            Constraints::Extended => "extended",
        }
    )]
    BreaksLimits {
        command: String,
        constraints: Constraints,
        error: InputError,
    },
    /// The brute force made no output for a built-in problem's input.
    #[error(transparent)]
    Reference(#[from] ReferenceFailed),
    /// A built-in problem's case that a `.gen` recipe (this one) describes too.
    #[error(
        "`{}` describes this case too; generators.yaml is its description now: remove the .gen",
        .0.display()
    )]
    Described(PathBuf),
    /// The run was cut short before the case was made.
    #[error("not made (cut short)")]
    CutShort,
    /// The case's files could not be written (a file there that generate did not make, a
    /// write refused).
    #[error("{0:#}")]
    Write(anyhow::Error),
    /// An included case whose original was not made.
    #[error("included case `{0}` was not made")]
    NotIncluded(String),
    /// A file of the case an included case copies.
    #[error("cannot read it: {0}")]
    Unreadable(OpenError),
    /// A group's folder or `test_group.yaml` could not be made, written or removed.
    #[error(transparent)]
    Group(#[from] WriteError),
    /// A group's `test_group.yaml` that generate did not write.
    #[error("is there and was not made by generate; --force replaces it")]
    NotOurs,
}

/// What generating noticed that fails nothing.
#[derive(Debug)]
pub enum Warning {
    /// A located warning of `generators.yaml`.
    Plan(Diagnostic),
    /// No `solution:` is given; this accepted submission (its path in the package) writes the
    /// answers.
    DefaultSolution(String),
    /// A case's file (the case's path) against a `match:` pattern.
    Missed(String, Missed),
    /// What validation could not check.
    NotValidated(Unchecked),
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::Plan(diagnostic) => diagnostic.fmt(f),
            Warning::DefaultSolution(path) => write!(
                f,
                "generators.yaml gives no `solution:`; answers are written by `/{path}` (add \
                 `solution: /{path}` to say so)"
            ),
            Warning::Missed(case, missed) => write!(f, "{case}: {missed}"),
            Warning::NotValidated(what) => write!(f, "not validated: {what}"),
        }
    }
}

/// Why a case of a package was not made.
#[derive(Debug, thiserror::Error)]
pub enum MakeError {
    /// Its generator or solution has no command to run, or did not run well.
    #[error(transparent)]
    Program(#[from] NoProgram),
    #[error(transparent)]
    Run(#[from] RunFailed),
    /// A file `copy:` names cannot be read.
    #[error("copy: {0}")]
    Copy(#[from] CopyError),
    /// `copy:` names a case with no file.
    #[error("copy: no file `{0}.<ext>` to copy")]
    NothingToCopy(String),
    #[error("no .in was made")]
    NoInput,
    /// A link to a file the case does not have.
    #[error("`{from}` links to `{to}`, which was not made")]
    BrokenLink { from: String, to: String },
}

/// A file `copy:` names that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error("cannot read `{}`: {error}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
}

/// Why a generator or a solution run contained made no files: what its run says, naming the
/// command.
#[derive(Debug, thiserror::Error)]
pub enum RunFailed {
    #[error("cannot make a temporary folder: {0}")]
    Staging(#[source] std::io::Error),
    #[error("generator `{command}` cannot be started: {error}")]
    GeneratorUnstarted {
        command: String,
        #[source]
        error: SpawnError,
    },
    /// Its last attempt failed; its stderr's last lines.
    #[error("generator `{command}` {failure}{}", said(stderr))]
    Generator {
        command: String,
        failure: Failure,
        stderr: Vec<u8>,
    },
    #[error("generator `{0}` wrote files that cannot be copied out (too large?)")]
    TooLarge(String),
    /// The generator's command, and the file it should have written.
    #[error("generator `{command}` wrote no {file} and nothing on stdout")]
    NoInput { command: String, file: String },
    #[error("solution `{path}` cannot be started: {error}")]
    SolutionUnstarted {
        path: String,
        #[source]
        error: SpawnError,
    },
    #[error("solution `{path}` {failure}{}", said(stderr))]
    Solution {
        path: String,
        failure: Failure,
        stderr: Vec<u8>,
    },
}

/// A `match:` pattern the case's file does not match, or that cannot be checked here; shown at
/// its line and column of generators.yaml.
#[derive(Debug)]
pub enum Missed {
    NoMatch(Match),
    /// A pattern the regex crate does not take.
    Unchecked(Match),
}

impl std::fmt::Display for Missed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (Missed::NoMatch(pattern) | Missed::Unchecked(pattern)) = self;
        write!(f, "generators.yaml:{}:{}: ", pattern.line, pattern.column)?;
        match self {
            Missed::NoMatch(_) => write!(
                f,
                "the .{} does not match `{}`",
                pattern.extension, pattern.pattern
            ),
            Missed::Unchecked(_) => write!(
                f,
                "pattern `{}` cannot be checked here (look-around and back-references are not \
                 supported)",
                pattern.pattern
            ),
        }
    }
}

/// A program's stderr as a message's tail: `: <its last lines>`, made safe to show.
fn said(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let tail = lines[lines.len().saturating_sub(10)..].join("\n");
    if tail.trim().is_empty() {
        String::new()
    } else {
        format!("; it said:\n{}", crate::escape::visible(&tail))
    }
}
