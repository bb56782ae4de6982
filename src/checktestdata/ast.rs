//! A parsed checktestdata script: commands in nested blocks, expressions and tests. Variables are
//! numbered slots (their names are kept once, for messages); constant subexpressions are already
//! computed.

use super::value::{Arith, Value};

/// One command and the script line it starts on.
#[derive(Debug)]
pub struct Command {
    pub line: u32,
    pub what: Cmd,
}

#[derive(Debug)]
pub enum Cmd {
    Space,
    Newline,
    Eof,
    Int {
        min: Expr,
        max: Expr,
        into: Option<Target>,
    },
    /// FLOAT, and FLOATP when `decimals` bounds the digits after the dot.
    Float {
        min: Expr,
        max: Expr,
        decimals: Option<(Expr, Expr)>,
        into: Option<Target>,
        notation: Notation,
    },
    String(Expr),
    /// `site` numbers the REGEX commands, for their compiled patterns.
    Regex {
        pattern: Expr,
        into: Option<Target>,
        site: usize,
    },
    /// The test and its text in the script, for the message when it fails.
    Assert {
        test: Test,
        text: String,
    },
    Set(Vec<(Target, Expr)>),
    Unset(Vec<usize>),
    /// REP and REPI (with a counter).
    Rep {
        counter: Option<Target>,
        count: Expr,
        separator: Option<Box<Command>>,
        body: Vec<Command>,
    },
    /// WHILE and WHILEI (with a counter).
    While {
        counter: Option<Target>,
        test: Test,
        separator: Option<Box<Command>>,
        body: Vec<Command>,
    },
    If {
        test: Test,
        then: Vec<Command>,
        otherwise: Vec<Command>,
    },
}

/// FLOAT's option: which notations a float may be written in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Notation {
    Any,
    Fixed,
    Scientific,
}

/// A variable, or an element of an array: `x`, `a[i, j + 1]`.
#[derive(Debug)]
pub struct Target {
    pub slot: usize,
    pub indices: Vec<Expr>,
}

#[derive(Debug)]
pub enum Expr {
    Const(Value),
    Var(Target),
    Neg(Box<Expr>),
    Bin(Arith, Box<Expr>, Box<Expr>),
    Pow(Box<Expr>, Box<Expr>),
    Strlen(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Compare {
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
}

#[derive(Debug)]
pub enum Test {
    Not(Box<Test>),
    And(Box<Test>, Box<Test>),
    Or(Box<Test>, Box<Test>),
    Compare(Compare, Expr, Expr),
    IsEof,
    Match(Expr),
    Unique(Vec<usize>),
    InArray(Expr, usize),
}
