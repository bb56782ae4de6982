//! How checking an input fails: the input does not match ([`Rejection`], naming the input's line
//! and column and the script's line) or the script is at fault ([`ScriptError`], a syntax error
//! or one met while running); either is a [`Failure`]; and where in the script a token starts
//! ([`Pos`]), which a syntax error names. Every part of the interpreter reads it.

use std::fmt;

/// Where a token starts: 1-based line and column (in bytes), and its offset in the script.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub offset: usize,
}

/// A fault of the script: a syntax error (with its column), or one met while running.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    pub line: u32,
    pub column: Option<u32>,
    pub message: String,
}

impl ScriptError {
    pub(super) fn at(pos: Pos, message: String) -> ScriptError {
        ScriptError {
            line: pos.line,
            column: Some(pos.column),
            message,
        }
    }

    pub(super) fn on_line(line: u32, message: String) -> ScriptError {
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
