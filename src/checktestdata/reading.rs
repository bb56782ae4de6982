//! The commands that read the input, for [`super::eval`]: SPACE and NEWLINE, INT, FLOAT and
//! FLOATP (tokens as [`super::input`] reads them, then the range), STRING and REGEX. Each
//! failure says what was expected and what the input has there, at the token's start. What a
//! command reads is charged to the run's budget by what it touched: a number's digits (read in
//! time quadratic in its words), its comparisons with the bounds, a string's bytes, what a
//! regular expression's automaton read and holds.

use super::ast::{Expr, Notation, Target};
use super::eval::{Run, Step};
use super::input::Read;
use super::number::{parse_work, Int};
use super::pattern::Pattern;
use super::value::{string_words, Value};

impl Run<'_, '_> {
    pub(super) fn byte(&mut self, wanted: u8, what: &str) -> Step {
        if self.input.peek() == Some(wanted) {
            self.input.at += 1;
            return Ok(());
        }
        let found = self.input.found(self.input.at);
        Err(self.reject(self.input.at, format!("expected {what}, found {found}")))
    }

    pub(super) fn int(&mut self, min: &Expr, max: &Expr, into: Option<&Target>) -> Step {
        let (min, max) = (self.integer(min)?, self.integer(max)?);
        let start = self.input.at;
        let what = || format!("expected an integer in [{min}, {max}]");
        let read = self.input.integer(&min, &max);
        if let Read::Value(value) = &read {
            // Numbers of a word each cost nothing beyond the command's step.
            if [&min, &max, value].iter().any(|n| matches!(n, Int::Big(_))) {
                let bounds = min.words() + max.words() + 2 * value.words();
                self.extra(parse_work(self.input.at - start) + bounds)?;
            }
        }
        let value = match read {
            Read::Value(value) if min <= value && value <= max => value,
            Read::Value(_) | Read::Beyond => {
                let found = self.input.found(start);
                return Err(self.reject(start, format!("{}, found {found}", what())));
            }
            Read::Malformed(why) => {
                let found = self.input.found(start);
                return Err(self.reject(start, format!("{}, found {found} ({why})", what())));
            }
        };
        match into {
            Some(target) => self.set(target, Value::Int(value)),
            None => Ok(()),
        }
    }

    pub(super) fn float(
        &mut self,
        min: &Expr,
        max: &Expr,
        decimals: Option<&(Expr, Expr)>,
        into: Option<&Target>,
        notation: Notation,
    ) -> Step {
        let (min, max) = (self.number(min)?, self.number(max)?);
        let decimals = match decimals {
            Some((low, high)) => Some(self.decimals(low, high)?),
            None => None,
        };
        let start = self.input.at;
        let mut what = format!("expected a float in [{min}, {max}]");
        match notation {
            Notation::Any => {}
            Notation::Fixed => what += " in fixed notation",
            Notation::Scientific => what += " in scientific notation",
        }
        if let Some((low, high)) = decimals {
            what += &format!(" with {low} to {high} decimals");
        }
        let found = |run: &Self, why: &str| {
            let shown = run.input.found(start);
            run.reject(start, format!("{what}, found {shown}{why}"))
        };
        let (value, shape) = match self.input.float(notation) {
            Read::Value(read) => read,
            Read::Beyond => return Err(found(self, " (beyond the interpreter's bounds)")),
            Read::Malformed(why) => return Err(found(self, &format!(" ({why})"))),
        };
        if let Some((low, high)) = decimals {
            if shape.not_normalised {
                return Err(found(
                    self,
                    " (with an exponent, one non-zero digit and a dot come first)",
                ));
            }
            if !(low..=high).contains(&shape.decimals) {
                return Err(found(self, &format!(" ({} decimals)", shape.decimals)));
            }
        }
        let value = Value::Float(value);
        if [&value, &min, &max].iter().any(|v| !v.fits_a_word()) {
            let bounds = Value::compare_work(&value, &min) + Value::compare_work(&value, &max);
            self.extra(parse_work(self.input.at - start) + bounds)?;
        }
        let below = Value::compare(&value, &min).map_err(|f| self.fault(f.to_string()))?;
        let above = Value::compare(&value, &max).map_err(|f| self.fault(f.to_string()))?;
        if below.is_lt() || above.is_gt() {
            return Err(found(self, ""));
        }
        match into {
            Some(target) => self.set(target, value),
            None => Ok(()),
        }
    }

    /// FLOATP's range of decimals.
    fn decimals(&mut self, low: &Expr, high: &Expr) -> Step<(usize, usize)> {
        let bound = |run: &mut Self, expr| {
            match run.eval(expr)? {
                Value::Int(n) => n.to_u64().and_then(|n| usize::try_from(n).ok()).ok_or(()),
                _ => Err(()),
            }
            .map_err(|()| run.fault("FLOATP's decimals must be non-negative integers".into()))
        };
        let (low, high) = (bound(self, low)?, bound(self, high)?);
        if low > high {
            return Err(self.fault(format!("FLOATP's decimals: {low} is more than {high}")));
        }
        Ok((low, high))
    }

    pub(super) fn string(&mut self, expr: &Expr) -> Step {
        let wanted = match self.eval(expr)? {
            Value::Str(bytes) => bytes,
            other => return Err(self.fault(format!("STRING of {other}, which is not a string"))),
        };
        self.extra(string_words(&wanted))?;
        let start = self.input.at;
        if self.input.bytes[start..].starts_with(&wanted) {
            self.input.at += wanted.len();
            return Ok(());
        }
        let found = self.input.found(start);
        let shown = Value::Str(wanted);
        Err(self.reject(start, format!("expected {shown}, found {found}")))
    }

    pub(super) fn regex(&mut self, pattern: &Expr, into: Option<&Target>, site: usize) -> Step {
        let start = self.input.at;
        let haystack = &self.input.bytes[start..];
        let (scan, held) = match (&self.script.patterns[site], &mut self.caches[site]) {
            (Some(pattern), Some(cache)) => {
                (pattern.longest(cache, haystack), cache.memory_usage())
            }
            _ => {
                let bytes = match self.eval(pattern)? {
                    Value::Str(bytes) => bytes,
                    other => {
                        return Err(self.fault(format!("REGEX of {other}, which is not a string")))
                    }
                };
                let compiled = &mut self.compiled[site];
                if compiled.as_ref().is_none_or(|(last, ..)| **last != *bytes) {
                    let pattern =
                        Pattern::new(&bytes).map_err(|why| self.fault(why.to_string()))?;
                    self.work((pattern.bytes() / 8) as u64)?;
                    let cache = pattern.cache();
                    self.compiled[site] = Some((bytes.to_vec(), pattern, cache));
                }
                let (text, pattern, cache) = self.compiled[site].as_mut().expect("compiled above");
                let scan = pattern.longest(cache, &self.input.bytes[start..]);
                (scan, text.len() + pattern.bytes() + cache.memory_usage())
            }
        };
        let scan = scan.map_err(|why| self.fault(why.to_string()))?;
        self.work(scan.work())?;
        self.hold_automaton(site, held as u64)?;
        let length = match scan.longest {
            Some(length) => length,
            None => {
                let found = self.input.found(start);
                return Err(self.reject(
                    start,
                    format!("expected text matching the REGEX, found {found}"),
                ));
            }
        };
        self.input.at += length;
        match into {
            Some(target) => {
                let text = Value::Str(self.input.bytes[start..start + length].into());
                self.set(target, text)
            }
            None => Ok(()),
        }
    }

    /// What the automaton of REGEX command `site` holds now, `bytes`, in the budget.
    fn hold_automaton(&mut self, site: usize, bytes: u64) -> Step {
        let before = std::mem::replace(&mut self.automata[site], bytes);
        match bytes.checked_sub(before) {
            Some(more) => self.budget.hold(more).map_err(|o| self.over(o)),
            None => {
                self.budget.release(before - bytes);
                Ok(())
            }
        }
    }
}
