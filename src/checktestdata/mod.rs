//! checktestdata, built in: DOMjudge's language for input validators (`.ctd` scripts), run
//! in-process over an input's bytes. A [`Script`] is parsed once ([`Script::parse`]: a syntax
//! error names the script's line and column) and checks any number of inputs
//! ([`Script::check`]: an input that does not match is a [`Rejection`] naming the input's line
//! and column and the script's line; a script that fails while running, say on an undefined
//! variable, is a [`ScriptError`]: the validator's fault, not the input's).
//!
//! The language is DOMjudge's specification (doc/format-spec.md of DOMjudge/checktestdata);
//! where it is silent, DOMjudge's implementation decides. What this interpreter bounds, so a
//! hostile script or input cannot hang or exhaust the judge: nesting ([`parser::MAX_DEPTH`]),
//! the size of numbers ([`number::MAX_DIGITS`] digits), the values held
//! ([`vars::MAX_VALUES`]), and the steps a run may take ([`eval::steps_for`]: a loop that reads
//! no input ends there, with an error).
//!
//! This module knows nothing of packages or processes: `package::programs` finds the scripts,
//! `commands::verify::validation` runs them.

mod ast;
mod decimal;
mod eval;
mod expressions;
mod input;
mod lexer;
mod number;
mod parser;
mod pattern;
mod reading;
mod value;
mod vars;

use std::fmt;

use ast::{Cmd, Command, Expr};
use lexer::Pos;
use parser::Parsed;
use pattern::Pattern;
use value::Value;

/// A parsed script, ready to check inputs; shared by any number of threads.
pub struct Script {
    parsed: Parsed,
    /// The pattern of each REGEX command whose pattern is a constant, compiled once.
    patterns: Vec<Option<Pattern>>,
}

impl Script {
    /// The script written `text`, or where and why it is not one.
    pub fn parse(text: &[u8]) -> Result<Script, ScriptError> {
        let parsed = parser::parse(text)?;
        let mut patterns = (0..parsed.regex_sites).map(|_| None).collect();
        compile_patterns(&parsed.body, &mut patterns)?;
        Ok(Script { parsed, patterns })
    }

    /// Checks `input`: `Ok` when it matches the script to its end.
    pub fn check(&self, input: &[u8]) -> Result<(), Failure> {
        eval::run(self, input)
    }
}

/// Compiles the constant patterns of the REGEX commands in `commands` and the blocks below.
fn compile_patterns(
    commands: &[Command],
    patterns: &mut Vec<Option<Pattern>>,
) -> Result<(), ScriptError> {
    for command in commands {
        match &command.what {
            Cmd::Regex {
                pattern: Expr::Const(Value::Str(bytes)),
                site,
                ..
            } => {
                let compiled =
                    Pattern::new(bytes).map_err(|why| ScriptError::on_line(command.line, why))?;
                patterns[*site] = Some(compiled);
            }
            Cmd::Rep { body, .. } | Cmd::While { body, .. } => compile_patterns(body, patterns)?,
            Cmd::If {
                then, otherwise, ..
            } => {
                compile_patterns(then, patterns)?;
                compile_patterns(otherwise, patterns)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// A fault of the script: a syntax error (with its column), or one met while running.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    pub line: u32,
    pub column: Option<u32>,
    pub message: String,
}

impl ScriptError {
    fn at(pos: Pos, message: String) -> ScriptError {
        ScriptError {
            line: pos.line,
            column: Some(pos.column),
            message,
        }
    }

    fn on_line(line: u32, message: String) -> ScriptError {
        ScriptError {
            line,
            column: None,
            message,
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "script line {}, column {column}: ", self.line)?,
            None => write!(f, "script line {}: ", self.line)?,
        }
        write!(f, "{}", self.message)
    }
}

/// An input that does not match: where (1-based; the column counts bytes) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The line of the command it failed.
    pub script_line: u32,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "input line {}, column {}: {} (script line {})",
            self.line, self.column, self.message, self.script_line
        )
    }
}

/// Why a check did not accept.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    Rejected(Rejection),
    Script(ScriptError),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Rejected(rejection) => rejection.fmt(f),
            Failure::Script(error) => error.fmt(f),
        }
    }
}
