//! A parsed script, as data: its tree and the compiled patterns of its constant REGEX commands.
//! Parsing one and checking inputs with it are [`Script::parse`] and [`Script::check`], in the
//! parent module; the evaluator reads it here.

use super::parser::Parsed;
use super::pattern::Pattern;

/// A parsed script, ready to check inputs; shared by any number of threads.
pub struct Script {
    pub(super) parsed: Parsed,
    /// The pattern of each REGEX command whose pattern is a constant, compiled once.
    pub(super) patterns: Vec<Option<Pattern>>,
}
