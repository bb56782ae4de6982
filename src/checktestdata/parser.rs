//! Tokens into the script's tree ([`super::ast`]), by DOMjudge's grammar and its precedences:
//! `&&` and `||` bind alike, left to right; `!` takes the whole test after it (`!a && b` is
//! `!(a && b)`, as DOMjudge's parser shifts there); `^` binds tightest and groups left
//! (`2^3^2` is 64); a unary minus takes the power after it (`-2^2` is -4).
//!
//! Nesting is bounded ([`MAX_DEPTH`] blocks, parentheses or operators deep) so that neither this
//! parser nor the interpreter, both recursive, can run out of stack on a hostile script.

use super::ast::{Cmd, Command, Expr, Notation, Target};
use super::failure::{Pos, ScriptError};
use super::lexer::{tokens, Tok, Word};
use super::number::Fault;
use super::value::Value;

/// How deep blocks, and expressions or tests, may nest.
pub const MAX_DEPTH: u32 = 64;
/// The words of work all constant folding of a script may do (tens of milliseconds).
const FOLDING_WORK: u64 = 1 << 26;
/// The words all the constants folding makes may hold (8 MiB).
const FOLDING_KEPT: u64 = 1 << 20;

/// What computing constant subexpressions while parsing may still spend, so that parsing a
/// hostile script is bounded too: past it, they are computed when the script runs, within its
/// budget.
pub struct Folding {
    work: u64,
    kept: u64,
}

impl Folding {
    /// The value `compute` makes, if its `work` and the value fit in what is left.
    pub fn fold(
        &mut self,
        work: u64,
        compute: impl FnOnce() -> Result<Value, Fault>,
    ) -> Option<Value> {
        self.work = self.work.checked_sub(work)?;
        let value = compute().ok()?;
        self.kept = self.kept.checked_sub(value.words())?;
        Some(value)
    }
}

/// A parsed script: its commands, its variables' names, how many REGEX commands it has.
pub struct Parsed {
    pub body: Vec<Command>,
    pub names: Vec<String>,
    pub regex_sites: usize,
}

pub fn parse(text: &[u8]) -> Result<Parsed, ScriptError> {
    let tokens = tokens(text)?;
    let mut parser = Parser {
        text,
        matching: matching_parentheses(&tokens),
        tokens,
        at: 0,
        names: vec![],
        regex_sites: 0,
        nesting: 0,
        folding: Folding {
            work: FOLDING_WORK,
            kept: FOLDING_KEPT,
        },
    };
    let (body, end) = parser.block()?;
    match end {
        Tok::End => Ok(Parsed {
            body,
            names: parser.names,
            regex_sites: parser.regex_sites,
        }),
        _ => Err(parser.error_before(format!("{} with no block to close", end.describe()))),
    }
}

/// For each `(`, the index of its `)` (or `usize::MAX`).
fn matching_parentheses(tokens: &[(Tok, Pos)]) -> Vec<usize> {
    let mut matching = vec![usize::MAX; tokens.len()];
    let mut open = vec![];
    for (i, (token, _)) in tokens.iter().enumerate() {
        match token {
            Tok::Sym("(") => open.push(i),
            Tok::Sym(")") => {
                if let Some(start) = open.pop() {
                    matching[start] = i;
                }
            }
            _ => {}
        }
    }
    matching
}

pub struct Parser<'a> {
    text: &'a [u8],
    pub(super) tokens: Vec<(Tok, Pos)>,
    /// For each `(`, the index of its `)`.
    pub(super) matching: Vec<usize>,
    pub(super) at: usize,
    pub(super) names: Vec<String>,
    regex_sites: usize,
    /// How deep the parser is in blocks, parentheses and operands.
    pub(super) nesting: u32,
    pub(super) folding: Folding,
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> &Tok {
        &self.tokens[self.at].0
    }

    pub(super) fn pos(&self) -> Pos {
        self.tokens[self.at].1
    }

    pub(super) fn next(&mut self) -> Tok {
        let token = self.tokens[self.at].0.clone();
        if token != Tok::End {
            self.at += 1;
        }
        token
    }

    pub(super) fn error(&self, message: String) -> ScriptError {
        ScriptError::at(self.pos(), message)
    }

    /// An error about the token just taken.
    pub(super) fn error_before(&self, message: String) -> ScriptError {
        ScriptError::at(self.tokens[self.at.saturating_sub(1)].1, message)
    }

    pub(super) fn eat(&mut self, symbol: &str) -> bool {
        let found = matches!(self.peek(), Tok::Sym(s) if *s == symbol);
        if found {
            self.at += 1;
        }
        found
    }

    pub(super) fn expect(&mut self, symbol: &str) -> Result<(), ScriptError> {
        if self.eat(symbol) {
            return Ok(());
        }
        Err(self.error(format!(
            "expected `{symbol}`, found {}",
            self.peek().describe()
        )))
    }

    pub(super) fn deeper(&self, height: u32) -> Result<u32, ScriptError> {
        if height > MAX_DEPTH {
            return Err(self.error(format!("nested more than {MAX_DEPTH} deep")));
        }
        Ok(height + 1)
    }

    /// Commands up to an END, an ELSE or the end of the script, and which of those it was.
    fn block(&mut self) -> Result<(Vec<Command>, Tok), ScriptError> {
        self.nesting = self.deeper(self.nesting)?;
        let mut commands = vec![];
        let end = loop {
            match self.peek() {
                Tok::End | Tok::Word(Word::End | Word::Else) => break self.next(),
                _ => commands.push(self.command()?),
            }
        };
        self.nesting -= 1;
        Ok((commands, end))
    }

    /// The body of a loop or IF, through its END; an IF's ELSE part when `with_else`.
    fn body(
        &mut self,
        opener: Pos,
        with_else: bool,
    ) -> Result<(Vec<Command>, Vec<Command>), ScriptError> {
        let (then, end) = self.block()?;
        let (otherwise, end) = match end {
            Tok::Word(Word::Else) if with_else => self.block()?,
            end => (vec![], end),
        };
        match end {
            Tok::Word(Word::End) => Ok((then, otherwise)),
            Tok::End => Err(ScriptError::at(opener, "a block that no END closes".into())),
            other => Err(self.error_before(format!("{} outside an IF", other.describe()))),
        }
    }

    fn command(&mut self) -> Result<Command, ScriptError> {
        let pos = self.pos();
        let word = match self.next() {
            Tok::Word(word) => word,
            other => {
                return Err(ScriptError::at(
                    pos,
                    format!("expected a command, found {}", other.describe()),
                ))
            }
        };
        let what = match word {
            Word::Space => Cmd::Space,
            Word::Newline => Cmd::Newline,
            Word::Eof => Cmd::Eof,
            Word::Int => {
                self.expect("(")?;
                let (min, max) = (self.expr()?.0, self.comma_expr()?);
                let into = self.optional_target()?;
                Cmd::Int { min, max, into }
            }
            Word::Float | Word::FloatP => {
                self.expect("(")?;
                let (min, max) = (self.expr()?.0, self.comma_expr()?);
                let decimals = match word {
                    Word::FloatP => Some((self.comma_expr()?, self.comma_expr()?)),
                    _ => None,
                };
                let into = self.optional_target()?;
                let notation = match into {
                    Some(_) if self.eat(",") => self.notation()?,
                    _ => Notation::Any,
                };
                Cmd::Float {
                    min,
                    max,
                    decimals,
                    into,
                    notation,
                }
            }
            Word::String => {
                self.expect("(")?;
                Cmd::String(self.expr()?.0)
            }
            Word::Regex => {
                self.expect("(")?;
                let pattern = self.expr()?.0;
                let into = self.optional_target()?;
                self.regex_sites += 1;
                Cmd::Regex {
                    pattern,
                    into,
                    site: self.regex_sites - 1,
                }
            }
            Word::Assert => {
                self.expect("(")?;
                let start = self.pos();
                let test = self.test()?.0;
                let end = self.tokens[self.at].1;
                let text = self.source(start, end);
                Cmd::Assert { test, text }
            }
            Word::Set => {
                self.expect("(")?;
                let mut assignments = vec![];
                loop {
                    let target = self.target()?;
                    self.expect("=")?;
                    assignments.push((target, self.expr()?.0));
                    if !self.eat(",") {
                        break Cmd::Set(assignments);
                    }
                }
            }
            Word::Unset => {
                self.expect("(")?;
                Cmd::Unset(self.names_list()?)
            }
            Word::Rep | Word::RepI | Word::While | Word::WhileI => {
                return self.loop_command(word, pos);
            }
            Word::If => {
                self.expect("(")?;
                let test = self.test()?.0;
                self.expect(")")?;
                let (then, otherwise) = self.body(pos, true)?;
                return Ok(Command {
                    line: pos.line,
                    what: Cmd::If {
                        test,
                        then,
                        otherwise,
                    },
                });
            }
            other => {
                return Err(ScriptError::at(
                    pos,
                    format!("expected a command, found `{}`", other.name()),
                ))
            }
        };
        if !matches!(what, Cmd::Space | Cmd::Newline | Cmd::Eof) {
            self.expect(")")?;
        }
        Ok(Command {
            line: pos.line,
            what,
        })
    }

    fn loop_command(&mut self, word: Word, pos: Pos) -> Result<Command, ScriptError> {
        self.expect("(")?;
        let counter = match word {
            Word::RepI | Word::WhileI => {
                let counter = self.target()?;
                self.expect(",")?;
                Some(counter)
            }
            _ => None,
        };
        let head = match word {
            Word::Rep | Word::RepI => Ok(self.expr()?.0),
            _ => Err(self.test()?.0),
        };
        let separator = if self.eat(",") {
            let separator = self.command()?;
            if matches!(
                separator.what,
                Cmd::Rep { .. } | Cmd::While { .. } | Cmd::If { .. }
            ) {
                return Err(ScriptError::at(
                    pos,
                    "a separator must be a single command, not a block".into(),
                ));
            }
            Some(Box::new(separator))
        } else {
            None
        };
        self.expect(")")?;
        let (body, _) = self.body(pos, false)?;
        let what = match head {
            Ok(count) => Cmd::Rep {
                counter,
                count,
                separator,
                body,
            },
            Err(test) => Cmd::While {
                counter,
                test,
                separator,
                body,
            },
        };
        Ok(Command {
            line: pos.line,
            what,
        })
    }

    /// The script's text from `start` up to `end`, trimmed.
    fn source(&self, start: Pos, end: Pos) -> String {
        let text = &self.text[start.offset..end.offset.max(start.offset)];
        String::from_utf8_lossy(text).trim().to_string()
    }

    fn comma_expr(&mut self) -> Result<Expr, ScriptError> {
        self.expect(",")?;
        Ok(self.expr()?.0)
    }

    fn optional_target(&mut self) -> Result<Option<Target>, ScriptError> {
        if matches!(self.peek(), Tok::Sym(",")) && matches!(self.tokens[self.at + 1].0, Tok::Var(_))
        {
            self.at += 1;
            return Ok(Some(self.target()?));
        }
        Ok(None)
    }

    fn notation(&mut self) -> Result<Notation, ScriptError> {
        match self.next() {
            Tok::Word(Word::Fixed) => Ok(Notation::Fixed),
            Tok::Word(Word::Scientific) => Ok(Notation::Scientific),
            other => Err(self.error_before(format!(
                "expected FIXED or SCIENTIFIC, found {}",
                other.describe()
            ))),
        }
    }
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
