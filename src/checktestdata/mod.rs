//! checktestdata, built in: DOMjudge's language for input validators (`.ctd` scripts), run
//! over an input's bytes. A [`Script`] is parsed once ([`Script::parse`]: a syntax error names
//! the script's line and column) and checks any number of inputs ([`Script::check`]: an input
//! that does not match is a [`failure::Rejection`] naming the input's line and column and the
//! script's line; a script that fails while running, say on an undefined variable, is a
//! [`ScriptError`]: the validator's fault, not the input's).
//!
//! The language is DOMjudge's specification (doc/format-spec.md of DOMjudge/checktestdata);
//! where it is silent, DOMjudge's implementation decides. What this interpreter bounds, so that
//! the bound a hostile script or input meets is a fact about them, with the script's line, not
//! the machine running out: a script's length ([`MAX_SCRIPT_BYTES`], [`read_script`]), nesting
//! ([`parser::MAX_DEPTH`]), what parsing computes ([`parser::Folding`]) and compiles
//! ([`pattern::MAX_PATTERN_BYTES`] a regular expression, [`MAX_PATTERNS_BYTES`] all), the size
//! of numbers ([`number::MAX_DIGITS`] digits), and each run's [`budget`]: its steps, an
//! operation on big numbers or long strings weighed by their size, and the bytes its values
//! hold.
//!
//! This module knows nothing of packages or processes: `package::programs` finds the scripts,
//! `commands::checktestdata` checks an input with one, ending with one of the exit codes here
//! ([`VALID`], [`INVALID`], [`SCRIPT_FAULT`]), and `validation::validators` runs that as a
//! contained child of grundy and reads them (its bounds are what makes the run's end name the
//! script's line; the child's limits hold whatever they do not weigh).

mod ast;
mod budget;
mod decimal;
mod eval;
mod expressions;
mod failure;
mod input;
mod lexer;
mod number;
mod parser;
mod pattern;
mod reading;
mod script;
mod value;
mod vars;

use std::io::Read;

use ast::{Cmd, Command, Expr};
pub use budget::DEFAULT_HELD_BYTES;
pub use failure::{Failure, ScriptError};
use pattern::Pattern;
pub use script::Script;
use value::Value;

/// The exit codes of `grundy checktestdata`: the Kattis validator protocol's, and a fault of the
/// script. Here, beside the language, so the command that ends with them and the validation
/// that reads them share one definition.
pub const VALID: u8 = 42;
pub const INVALID: u8 = 43;
pub const SCRIPT_FAULT: u8 = 2;

/// The longest script read, in bytes: real ones are a few KiB, and what parsing makes of a script
/// grows with it.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// What the constant patterns of a script's REGEX commands may take compiled, together.
const MAX_PATTERNS_BYTES: usize = 64 << 20;

/// Reads a script from `file`, refusing one longer than [`MAX_SCRIPT_BYTES`] without reading
/// further.
pub fn read_script(file: impl Read) -> Result<Vec<u8>, ReadError> {
    let mut text = Vec::new();
    file.take(MAX_SCRIPT_BYTES + 1)
        .read_to_end(&mut text)
        .map_err(ReadError::Io)?;
    if text.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(ReadError::TooLong);
    }
    Ok(text)
}

/// Why a script could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read it: {0}")]
    Io(std::io::Error),
    #[error(
        "it is longer than {} KiB, which no checktestdata script needs (grundy reads no more)",
        MAX_SCRIPT_BYTES >> 10
    )]
    TooLong,
}

impl Script {
    /// The script written `text`, or where and why it is not one.
    pub fn parse(text: &[u8]) -> Result<Script, ScriptError> {
        let parsed = parser::parse(text)?;
        let mut patterns = (0..parsed.regex_sites).map(|_| None).collect();
        compile_patterns(&parsed.body, &mut patterns, &mut 0)?;
        Ok(Script { parsed, patterns })
    }

    /// Checks `input`: `Ok` when it matches the script to its end. Its values may hold `most`
    /// bytes ([`DEFAULT_HELD_BYTES`] unless the caller has a reason for another bound).
    pub fn check(&self, input: &[u8], most: u64) -> Result<(), Failure> {
        eval::run(self, input, most)
    }
}

/// Compiles the constant patterns of the REGEX commands in `commands` and the blocks below,
/// adding what they take to `taken`, which may not pass [`MAX_PATTERNS_BYTES`].
fn compile_patterns(
    commands: &[Command],
    patterns: &mut Vec<Option<Pattern>>,
    taken: &mut usize,
) -> Result<(), ScriptError> {
    for command in commands {
        match &command.what {
            Cmd::Regex {
                pattern: Expr::Const(Value::Str(bytes)),
                site,
                ..
            } => {
                let fault = |why| ScriptError::on_line(command.line, why);
                let compiled = Pattern::new(bytes).map_err(|why| fault(why.to_string()))?;
                *taken += compiled.bytes();
                if *taken > MAX_PATTERNS_BYTES {
                    return Err(fault(format!(
                        "the script's regular expressions would take more than {} MiB compiled",
                        MAX_PATTERNS_BYTES >> 20
                    )));
                }
                patterns[*site] = Some(compiled);
            }
            Cmd::Rep { body, .. } | Cmd::While { body, .. } => {
                compile_patterns(body, patterns, taken)?
            }
            Cmd::If {
                then, otherwise, ..
            } => {
                compile_patterns(then, patterns, taken)?;
                compile_patterns(otherwise, patterns, taken)?;
            }
            _ => {}
        }
    }
    Ok(())
}
