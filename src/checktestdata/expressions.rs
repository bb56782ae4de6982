//! Expressions, tests and variables of a script, for [`super::parser`]: DOMjudge's precedences
//! (see there), constant subexpressions computed as they are parsed (within
//! [`Folding`](super::parser::Folding)'s bounds: beyond them they are left for the run, whose
//! budget weighs them), and each node's height, which the interpreter's recursion follows, held
//! within [`MAX_DEPTH`](super::parser::MAX_DEPTH).

use super::ast::{Compare, Expr, Target, Test};
use super::decimal::Dec;
use super::failure::ScriptError;
use super::lexer::{Tok, Word};
use super::number::{Fault, Int};
use super::parser::Parser;
use super::value::{Arith, Value};

/// An expression or test and its height.
pub type Node<T> = (T, u32);

impl Parser<'_> {
    fn slot(&mut self, name: String) -> usize {
        match self.names.iter().position(|known| *known == name) {
            Some(slot) => slot,
            None => {
                self.names.push(name);
                self.names.len() - 1
            }
        }
    }

    pub(super) fn name(&mut self) -> Result<usize, ScriptError> {
        match self.next() {
            Tok::Var(name) => Ok(self.slot(name)),
            other => {
                Err(self.error_before(format!("expected a variable, found {}", other.describe())))
            }
        }
    }

    pub(super) fn names_list(&mut self) -> Result<Vec<usize>, ScriptError> {
        let mut names = vec![self.name()?];
        while self.eat(",") {
            names.push(self.name()?);
        }
        Ok(names)
    }

    pub(super) fn target(&mut self) -> Result<Target, ScriptError> {
        Ok(self.variable()?.0)
    }

    fn variable(&mut self) -> Result<Node<Target>, ScriptError> {
        let slot = self.name()?;
        let mut indices = vec![];
        let mut height = 1;
        if self.eat("[") {
            loop {
                let (index, h) = self.expr()?;
                height = height.max(self.deeper(h)?);
                indices.push(index);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
        }
        Ok((Target { slot, indices }, height))
    }

    pub(super) fn test(&mut self) -> Result<Node<Test>, ScriptError> {
        self.nesting = self.deeper(self.nesting)?;
        let (mut left, mut height) = self.unary_test()?;
        loop {
            let and = match self.peek() {
                Tok::Sym("&&") => true,
                Tok::Sym("||") => false,
                _ => break,
            };
            self.at += 1;
            let (right, h) = self.unary_test()?;
            height = self.deeper(height.max(h))?;
            let (l, r) = (Box::new(left), Box::new(right));
            left = if and { Test::And(l, r) } else { Test::Or(l, r) };
        }
        self.nesting -= 1;
        Ok((left, height))
    }

    fn unary_test(&mut self) -> Result<Node<Test>, ScriptError> {
        match self.peek().clone() {
            Tok::Sym("!") => {
                self.at += 1;
                let (test, h) = self.test()?;
                Ok((Test::Not(Box::new(test)), self.deeper(h)?))
            }
            Tok::Word(Word::IsEof) => {
                self.at += 1;
                Ok((Test::IsEof, 1))
            }
            Tok::Word(Word::Match) => {
                self.at += 1;
                self.expect("(")?;
                let (what, h) = self.expr()?;
                self.expect(")")?;
                Ok((Test::Match(what), h + 1))
            }
            Tok::Word(Word::Unique) => {
                self.at += 1;
                self.expect("(")?;
                let names = self.names_list()?;
                self.expect(")")?;
                Ok((Test::Unique(names), 1))
            }
            Tok::Word(Word::InArray) => {
                self.at += 1;
                self.expect("(")?;
                let (value, h) = self.expr()?;
                self.expect(",")?;
                let array = self.name()?;
                self.expect(")")?;
                Ok((Test::InArray(value, array), h + 1))
            }
            Tok::Sym("(") if self.parenthesised_test() => {
                self.at += 1;
                let test = self.test()?;
                self.expect(")")?;
                Ok(test)
            }
            _ => {
                let (left, hl) = self.expr()?;
                let compare = match self.next() {
                    Tok::Sym("<") => Compare::Lt,
                    Tok::Sym(">") => Compare::Gt,
                    Tok::Sym("<=") => Compare::Le,
                    Tok::Sym(">=") => Compare::Ge,
                    Tok::Sym("==") => Compare::Eq,
                    Tok::Sym("!=") => Compare::Ne,
                    other => {
                        return Err(self.error_before(format!(
                            "expected a comparison (`<`, `==`, ...), found {}",
                            other.describe()
                        )))
                    }
                };
                let (right, hr) = self.expr()?;
                Ok((
                    Test::Compare(compare, left, right),
                    self.deeper(hl.max(hr))?,
                ))
            }
        }
    }

    /// Whether the `(` at the cursor opens a test rather than an expression: an expression in
    /// parentheses is followed by an operator or a comparison, a test never is.
    fn parenthesised_test(&self) -> bool {
        let close = self.matching[self.at];
        let after = self.tokens.get(close.saturating_add(1)).map(|t| &t.0);
        let operators = [
            "+", "-", "*", "/", "%", "^", "<", ">", "<=", ">=", "==", "!=",
        ];
        !matches!(after, Some(Tok::Sym(s)) if operators.contains(s)) && close != usize::MAX
    }

    pub(super) fn expr(&mut self) -> Result<Node<Expr>, ScriptError> {
        self.nesting = self.deeper(self.nesting)?;
        let mut left = self.term()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("+") => Arith::Add,
                Tok::Sym("-") => Arith::Sub,
                _ => break,
            };
            self.at += 1;
            let right = self.term()?;
            left = self.binary(op, left, right)?;
        }
        self.nesting -= 1;
        Ok(left)
    }

    fn term(&mut self) -> Result<Node<Expr>, ScriptError> {
        let mut left = self.factor()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("*") => Arith::Mul,
                Tok::Sym("/") => Arith::Div,
                Tok::Sym("%") => Arith::Rem,
                _ => break,
            };
            self.at += 1;
            let right = self.factor()?;
            left = self.binary(op, left, right)?;
        }
        Ok(left)
    }

    fn factor(&mut self) -> Result<Node<Expr>, ScriptError> {
        if !self.eat("-") {
            return self.power();
        }
        self.nesting = self.deeper(self.nesting)?;
        let (operand, h) = self.factor()?;
        self.nesting -= 1;
        let height = self.deeper(h)?;
        Ok(match operand {
            Expr::Const(value) => match self.folding.fold(value.words(), || value.neg()) {
                Some(negated) => (Expr::Const(negated), 1),
                None => (Expr::Neg(Box::new(Expr::Const(value))), height),
            },
            operand => (Expr::Neg(Box::new(operand)), height),
        })
    }

    fn power(&mut self) -> Result<Node<Expr>, ScriptError> {
        let (mut base, mut height) = self.primary()?;
        while self.eat("^") {
            let (exponent, h) = if matches!(self.peek(), Tok::Sym("-")) {
                self.factor()?
            } else {
                self.primary()?
            };
            height = self.deeper(height.max(h))?;
            base = match (base, exponent) {
                (Expr::Const(b), Expr::Const(e)) => {
                    match self
                        .folding
                        .fold(Value::pow_work(&b, &e), || Value::pow(&b, &e))
                    {
                        Some(power) => Expr::Const(power),
                        None => Expr::Pow(Box::new(Expr::Const(b)), Box::new(Expr::Const(e))),
                    }
                }
                (b, e) => Expr::Pow(Box::new(b), Box::new(e)),
            };
        }
        Ok((base, height))
    }

    /// `left op right`, computed now when both are constants and that succeeds (a failure is
    /// left for when, and if, the script runs it).
    fn binary(
        &mut self,
        op: Arith,
        (l, hl): Node<Expr>,
        (r, hr): Node<Expr>,
    ) -> Result<Node<Expr>, ScriptError> {
        if let (Expr::Const(a), Expr::Const(b)) = (&l, &r) {
            let work = Value::arith_work(op, a, b);
            if let Some(value) = self.folding.fold(work, || Value::arith(op, a, b)) {
                return Ok((Expr::Const(value), 1));
            }
        }
        Ok((
            Expr::Bin(op, Box::new(l), Box::new(r)),
            self.deeper(hl.max(hr))?,
        ))
    }

    fn primary(&mut self) -> Result<Node<Expr>, ScriptError> {
        let pos = self.pos();
        let literal = |value: Result<_, _>| {
            value
                .map(|v| (Expr::Const(v), 1))
                .map_err(|fault| ScriptError::at(pos, format!("{fault}")))
        };
        match self.peek().clone() {
            Tok::Int(digits) => {
                self.at += 1;
                literal(Int::parse(false, digits.as_bytes()).map(Value::Int))
            }
            Tok::Float(text) => {
                self.at += 1;
                literal(float_literal(&text).map(Value::Float))
            }
            Tok::Str(bytes) => {
                self.at += 1;
                Ok((Expr::Const(Value::Str(bytes.into())), 1))
            }
            Tok::Var(_) => {
                let (target, h) = self.variable()?;
                Ok((Expr::Var(target), h))
            }
            Tok::Word(Word::Strlen) => {
                self.at += 1;
                self.expect("(")?;
                let (of, h) = self.expr()?;
                self.expect(")")?;
                Ok((Expr::Strlen(Box::new(of)), self.deeper(h)?))
            }
            Tok::Sym("(") => {
                self.at += 1;
                let inner = self.expr()?;
                self.expect(")")?;
                Ok(inner)
            }
            other => Err(self.error(format!("expected a value, found {}", other.describe()))),
        }
    }
}

/// A float literal of the script: digits, an optional dot and digits, an optional exponent.
fn float_literal(text: &str) -> Result<Dec, Fault> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (
            &text[..at],
            text[at + 1..].parse::<i64>().unwrap_or(i64::MAX),
        ),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    Dec::parse(false, whole.as_bytes(), fraction.as_bytes(), exponent)
}
