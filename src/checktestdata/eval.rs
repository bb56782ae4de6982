//! Running a script over one input: the commands in order, each reading from the cursor with no
//! whitespace skipped (those that read are in [`super::reading`]), then the implicit EOF. The first mismatch stops the run as a
//! [`Rejection`]; a fault of the script (a type error, an undefined variable, a bound of the
//! interpreter passed) as a [`ScriptError`] on the command's line.
//!
//! Loops follow DOMjudge: REPI's and WHILEI's counter is 0 before the count or test is first
//! computed and holds the number of iterations after; the separator runs between iterations.
//! Each command, loop iteration, test and operation is a step of the run's [`Budget`]
//! (an operation on big values more, by their size), and its values are held within it: a loop
//! that reads no input cannot go on forever, nor can a script fill the memory.

use regex_automata::hybrid::dfa::Cache;

use super::ast::{Cmd, Command, Compare, Expr, Target, Test};
use super::budget::{steps_for, Budget, Overrun, WORDS_PER_STEP};
use super::failure::{Failure, Rejection, ScriptError};
use super::input::Input;
use super::number::Int;
use super::pattern::Pattern;
use super::script::Script;
use super::value::{string_words, Value};
use super::vars::{show_index, NotUnique, Vars};

/// Checks `bytes` with `script`, its values holding at most `most` bytes.
pub fn run(script: &Script, bytes: &[u8], most: u64) -> Result<(), Failure> {
    run_with(script, bytes, Budget::new(steps_for(bytes.len()), most))
}

/// [`run`] within `budget`.
pub(super) fn run_with(script: &Script, bytes: &[u8], budget: Budget) -> Result<(), Failure> {
    let sites = script.patterns.len();
    let mut run = Run {
        script,
        input: Input { bytes, at: 0 },
        vars: Vars::new(script.parsed.names.len()),
        budget,
        line: 1,
        caches: script
            .patterns
            .iter()
            .map(|p| p.as_ref().map(Pattern::cache))
            .collect(),
        compiled: (0..sites).map(|_| None).collect(),
        automata: vec![0; sites],
    };
    run.block(&script.parsed.body)?;
    if !run.input.at_end() {
        return Err(run.reject(run.input.at, "expected the end of the input".into()));
    }
    Ok(())
}

pub struct Run<'s, 'i> {
    pub(super) script: &'s Script,
    pub(super) input: Input<'i>,
    vars: Vars,
    pub(super) budget: Budget,
    /// The line of the command running, for messages.
    line: u32,
    /// The lazy DFA caches of the constant patterns.
    pub(super) caches: Vec<Option<Cache>>,
    /// Patterns computed while running: the last one of each REGEX command, compiled.
    pub(super) compiled: Vec<Option<(Vec<u8>, Pattern, Cache)>>,
    /// The bytes each REGEX command's automaton held the last time it ran, as the budget holds
    /// them (its cache, and a computed pattern itself).
    pub(super) automata: Vec<u64>,
}

pub type Step<T = ()> = Result<T, Failure>;

impl Run<'_, '_> {
    pub(super) fn fault(&self, message: String) -> Failure {
        Failure::Script(ScriptError::on_line(self.line, message))
    }

    pub(super) fn reject(&self, at: usize, message: String) -> Failure {
        let (line, column) = self.input.location(at);
        Failure::Rejected(Rejection {
            line,
            column,
            message,
            script_line: self.line,
        })
    }

    /// A bound of the budget passed, on the line running.
    pub(super) fn over(&self, overrun: Overrun) -> Failure {
        self.fault(overrun.to_string())
    }

    /// One step that touches `words` words.
    pub(super) fn work(&mut self, words: u64) -> Step {
        self.budget.work(words).map_err(|o| self.over(o))
    }

    /// `words` touched within a step already taken.
    #[inline]
    pub(super) fn extra(&mut self, words: u64) -> Step {
        if words < WORDS_PER_STEP {
            return Ok(());
        }
        self.budget.extra(words).map_err(|o| self.over(o))
    }

    fn step(&mut self) -> Step {
        self.work(0)
    }

    fn block(&mut self, commands: &[Command]) -> Step {
        commands
            .iter()
            .try_for_each(|command| self.command(command))
    }

    fn command(&mut self, command: &Command) -> Step {
        self.step()?;
        self.line = command.line;
        match &command.what {
            Cmd::Space => self.byte(b' ', "a space"),
            Cmd::Newline => self.byte(b'\n', "a newline"),
            Cmd::Eof if self.input.at_end() => Ok(()),
            Cmd::Eof => Err(self.reject(self.input.at, "expected the end of the input".into())),
            Cmd::Int { min, max, into } => self.int(min, max, into.as_ref()),
            Cmd::Float {
                min,
                max,
                decimals,
                into,
                notation,
            } => self.float(min, max, decimals.as_ref(), into.as_ref(), *notation),
            Cmd::String(expr) => self.string(expr),
            Cmd::Regex {
                pattern,
                into,
                site,
            } => self.regex(pattern, into.as_ref(), *site),
            Cmd::Assert { test, text } => {
                if self.test(test)? {
                    return Ok(());
                }
                Err(self.reject(
                    self.input.at,
                    format!("the assertion `{text}` does not hold"),
                ))
            }
            Cmd::Set(assignments) => assignments.iter().try_for_each(|(target, expr)| {
                let value = self.eval(expr)?;
                self.set(target, value)
            }),
            Cmd::Unset(slots) => {
                for &slot in slots {
                    self.vars.unset(slot, &mut self.budget);
                }
                Ok(())
            }
            Cmd::Rep {
                counter,
                count,
                separator,
                body,
            } => {
                self.count_to(counter.as_ref(), 0)?;
                let times = match self.eval(count)? {
                    Value::Int(n) => n.to_u64(),
                    _ => None,
                };
                let times = times.ok_or_else(|| {
                    self.fault("the count of REP is not an integer in [0, 2^64)".into())
                })?;
                for i in 0..times {
                    self.iteration(i, separator.as_deref(), body, counter.as_ref())?;
                    self.line = command.line;
                    self.step()?;
                }
                Ok(())
            }
            Cmd::While {
                counter,
                test,
                separator,
                body,
            } => {
                self.count_to(counter.as_ref(), 0)?;
                let mut i = 0;
                while self.test(test)? {
                    self.iteration(i, separator.as_deref(), body, counter.as_ref())?;
                    self.line = command.line;
                    self.step()?;
                    i += 1;
                }
                Ok(())
            }
            Cmd::If {
                test,
                then,
                otherwise,
            } => {
                if self.test(test)? {
                    self.block(then)
                } else {
                    self.block(otherwise)
                }
            }
        }
    }

    /// Iteration `i` of a loop (counting from 0): the separator unless first, the body, the
    /// counter set to the iterations done.
    fn iteration(
        &mut self,
        i: u64,
        separator: Option<&Command>,
        body: &[Command],
        counter: Option<&Target>,
    ) -> Step {
        if let Some(separator) = separator.filter(|_| i > 0) {
            self.command(separator)?;
        }
        self.block(body)?;
        self.count_to(counter, i + 1)
    }

    fn count_to(&mut self, counter: Option<&Target>, n: u64) -> Step {
        match counter {
            Some(counter) => {
                let n = i64::try_from(n).map_or_else(|_| Int::Small(i64::MAX), Int::Small);
                self.set(counter, Value::Int(n))
            }
            None => Ok(()),
        }
    }

    fn test(&mut self, test: &Test) -> Step<bool> {
        self.step()?;
        Ok(match test {
            Test::Not(inner) => !self.test(inner)?,
            Test::And(a, b) => self.test(a)? && self.test(b)?,
            Test::Or(a, b) => self.test(a)? || self.test(b)?,
            Test::Compare(compare, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                self.extra(Value::compare_work(&a, &b))?;
                let order = Value::compare(&a, &b).map_err(|f| self.fault(f.to_string()))?;
                match compare {
                    Compare::Lt => order.is_lt(),
                    Compare::Gt => order.is_gt(),
                    Compare::Le => order.is_le(),
                    Compare::Ge => order.is_ge(),
                    Compare::Eq => order.is_eq(),
                    Compare::Ne => order.is_ne(),
                }
            }
            Test::IsEof => self.input.at_end(),
            Test::Match(expr) => match self.eval(expr)? {
                Value::Str(set) => {
                    self.extra(string_words(&set))?;
                    self.input.peek().is_some_and(|c| set.contains(&c))
                }
                other => return Err(self.fault(format!("MATCH of {other}, which is not a string"))),
            },
            Test::Unique(slots) => {
                let names = &self.script.parsed.names;
                match self.vars.unique(slots, names, &mut self.budget) {
                    Ok(()) => true,
                    Err(NotUnique::Undefined(slot)) => return Err(self.undefined(slot, "")),
                    Err(NotUnique::Rejected(why)) => return Err(self.reject(self.input.at, why)),
                    Err(NotUnique::Over(overrun)) => return Err(self.over(overrun)),
                }
            }
            Test::InArray(expr, slot) => {
                let value = self.eval(expr)?;
                if !self.vars.is_defined(*slot) {
                    return Err(self.undefined(*slot, ""));
                }
                let found = self.vars.contains(*slot, &value, &mut self.budget);
                found.map_err(|o| self.over(o))?
            }
        })
    }

    fn undefined(&self, slot: usize, index: &str) -> Failure {
        let name = &self.script.parsed.names[slot];
        self.fault(format!("the variable `{name}{index}` has no value"))
    }

    /// The value of `expr`, each node a step weighed by what it touches (a copy, an
    /// operation), before it is computed.
    pub(super) fn eval(&mut self, expr: &Expr) -> Step<Value> {
        let value = match expr {
            // A constant is part of the step of what uses it (an operation, a command, a test).
            Expr::Const(value) => {
                self.extra(value.words())?;
                Ok(value.clone())
            }
            Expr::Var(target) => {
                let index = self.index(target)?;
                let words = self.vars.get(target.slot, &index).map(Value::words);
                self.work(words.unwrap_or(0))?;
                return match self.vars.get(target.slot, &index) {
                    Some(value) => Ok(value.clone()),
                    None if index.is_empty() => Err(self.undefined(target.slot, "")),
                    None => Err(self.undefined(target.slot, &show_index(&index))),
                };
            }
            Expr::Neg(inner) => {
                let value = self.eval(inner)?;
                self.work(value.words())?;
                value.neg()
            }
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                self.work(Value::arith_work(*op, &a, &b))?;
                Value::arith(*op, &a, &b)
            }
            Expr::Pow(a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                self.work(Value::pow_work(&a, &b))?;
                Value::pow(&a, &b)
            }
            Expr::Strlen(inner) => {
                self.step()?;
                match self.eval(inner)? {
                    Value::Str(bytes) => Ok(Value::Int(Int::Small(bytes.len() as i64))),
                    other => {
                        return Err(self.fault(format!("STRLEN of {other}, which is not a string")))
                    }
                }
            }
        };
        value.map_err(|fault| self.fault(fault.to_string()))
    }

    pub(super) fn integer(&mut self, expr: &Expr) -> Step<Int> {
        match self.eval(expr)? {
            Value::Int(n) => Ok(n),
            other => Err(self.fault(format!("{other} is not an integer"))),
        }
    }

    pub(super) fn number(&mut self, expr: &Expr) -> Step<Value> {
        match self.eval(expr)? {
            Value::Str(_) => Err(self.fault("a bound of FLOAT is a string".into())),
            number => Ok(number),
        }
    }

    fn index(&mut self, target: &Target) -> Step<Vec<Int>> {
        let mut index = Vec::with_capacity(target.indices.len());
        for expr in &target.indices {
            index.push(self.integer(expr)?);
        }
        Ok(index)
    }

    pub(super) fn set(&mut self, target: &Target, value: Value) -> Step {
        let index = self.index(target)?;
        let set = self.vars.set(target.slot, index, value, &mut self.budget);
        set.map_err(|o| self.over(o))
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;
