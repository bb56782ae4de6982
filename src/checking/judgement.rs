//! What a checker is given for one case ([`Submitted`]) and what it concludes ([`Judgement`]),
//! and why a checker or interactor named in runner.toml or on the command line cannot be used
//! ([`NameError`]). Shared by every kind of checker (the parts of [`super`]), which read it here.

use super::feedback::Feedback;
use super::score;
use crate::run_input::Input;
use std::path::Path;

/// The comparisons' names, and the protocols' prefixes, a mistyped checker name is compared
/// with.
const CHECKER_NAMES: &[&str] = &[
    "tokens",
    "tokens-ci",
    "lines",
    "exact",
    "float:",
    "kattis:",
    "testlib:",
];

/// Why a checker or interactor, as named in runner.toml or on the command line, cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NameError {
    #[error(
        "unknown checker `{0}`{hint}; expected one of tokens, tokens-ci, lines, exact, \
         float:ABS:REL (e.g. float:1e-6:1e-6), kattis:CMD or testlib:CMD",
        hint = crate::suggest::did_you_mean(.0, CHECKER_NAMES.iter().copied())
    )]
    UnknownChecker(String),
    #[error(
        "checker `{0}` needs two non-negative tolerances: float:ABS:REL (e.g. float:1e-6:1e-6)"
    )]
    Tolerances(String),
    #[error("interactor `{0}` must be kattis:CMD or testlib:CMD (e.g. kattis:./interactor)")]
    NotAnInteractor(String),
    /// The base of a command line's relative paths.
    #[error("cannot read the working directory: {0}")]
    WorkingDirectory(std::io::Error),
    /// `judge`'s command (`kattis:CMD` as written) cannot be split or names a missing file.
    #[error("`{judge}`: {error:#}")]
    Command { judge: String, error: anyhow::Error },
    #[error("`{judge}`: {reason}")]
    NotStartable {
        judge: String,
        reason: crate::command_line::NotStartable,
    },
}

/// What a checker concluded.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    Accepted,
    /// Accepted, with the score a Kattis judge wrote for it (scoring problems).
    Scored(score::ValidatorScore),
    /// The answer is wrong; the message says what and where.
    WrongAnswer(String),
    /// The tokens are right but the layout the checker demands is not.
    PresentationError(String),
    /// The checker itself failed or found the problem's files unusable.
    JudgeError(String),
}

/// Everything a checker may look at for one case.
#[derive(Clone, Copy, Debug)]
pub struct Submitted<'a> {
    /// The case's input.
    pub input: Input<'a>,
    /// The expected output (the answer file).
    pub expected: &'a [u8],
    /// What the program wrote.
    pub output: &'a [u8],
    /// The feedback folder the passes of a multi-pass problem's case share (`None`: a case of one
    /// pass, judged with a fresh one).
    pub feedback: Option<&'a Feedback>,
    /// The folder the judged submission's runs start from (its build folder), if a built
    /// program's run is judged.
    pub submission_files: Option<&'a Path>,
}
