//! The values of the checktestdata language: integers ([`Int`]), floats ([`Dec`]) and byte
//! strings, and what the language does with them: arithmetic (integer when both sides are,
//! float otherwise; none on strings), comparisons (numbers with numbers, strings bytewise), and
//! keys for hashing that keep the types apart, as DOMjudge's arrays do.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::decimal::Dec;
use super::number::{Fault, Int};

/// A binary arithmetic operator but `^` ([`Value::pow`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// A value of the language.
#[derive(Clone, Debug)]
pub enum Value {
    Int(Int),
    Float(Dec),
    Str(Arc<[u8]>),
}

/// A value as a key of a hash: equal keys for equal values of the same type (an integer never
/// equals a float here, as in DOMjudge's arrays).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Int(Int),
    Float(Int, i64),
    Str(Arc<[u8]>),
}

impl Value {
    pub fn key(&self) -> Key {
        match self {
            Value::Int(n) => Key::Int(n.clone()),
            Value::Float(x) => {
                let (mantissa, exponent) = x.normalized();
                Key::Float(mantissa, exponent)
            }
            Value::Str(s) => Key::Str(Arc::clone(s)),
        }
    }

    fn number(&self, what: &str) -> Result<Dec, Fault> {
        match self {
            Value::Int(n) => Ok(Dec::from(n.clone())),
            Value::Float(x) => Ok(x.clone()),
            Value::Str(_) => Err(Fault::Type(format!("{what} of a string"))),
        }
    }

    /// `a ^ b`, `b` an integer in [0, 2^64) as DOMjudge's unsigned long.
    pub fn pow(a: &Value, b: &Value) -> Result<Value, Fault> {
        let exponent = match b {
            Value::Int(n) => n.to_u64(),
            _ => None,
        };
        let exponent = exponent.ok_or_else(|| {
            Fault::Type(format!(
                "the exponent {b} is not an integer in [0, 2^64): `^` takes no other"
            ))
        })?;
        match a {
            Value::Int(n) => n.pow(exponent).map(Value::Int),
            _ => a.number("a power")?.pow(exponent).map(Value::Float),
        }
    }

    /// `a op b`: integer when both are, otherwise float; strings have no arithmetic.
    pub fn arith(op: Arith, a: &Value, b: &Value) -> Result<Value, Fault> {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            return match op {
                Arith::Add => x.add(y),
                Arith::Sub => x.sub(y),
                Arith::Mul => x.mul(y),
                Arith::Div => x.div(y),
                Arith::Rem => x.rem(y),
            }
            .map(Value::Int);
        }
        let (x, y) = (a.number("arithmetic")?, b.number("arithmetic")?);
        match op {
            Arith::Add => x.add(&y),
            Arith::Sub => x.add(&y.neg()),
            Arith::Mul => x.mul(&y),
            Arith::Div => x.div(&y),
            Arith::Rem => Err(Fault::Type(
                "a remainder of floats: `%` takes integers only".into(),
            )),
        }
        .map(Value::Float)
    }

    pub fn neg(&self) -> Result<Value, Fault> {
        match self {
            Value::Int(n) => Ok(Value::Int(n.neg())),
            Value::Float(x) => Ok(Value::Float(x.neg())),
            Value::Str(_) => Err(Fault::Type("the negation of a string".into())),
        }
    }

    /// The order of two numbers, or of two strings (bytewise); nothing else compares.
    pub fn compare(a: &Value, b: &Value) -> Result<Ordering, Fault> {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => Ok(x.cmp(y)),
            (Value::Str(x), Value::Str(y)) => Ok(x.cmp(y)),
            (Value::Str(_), _) | (_, Value::Str(_)) => Err(Fault::Type(format!(
                "a comparison of a string with a number ({a} and {b})"
            ))),
            _ => Ok(a.number("")?.compare(&b.number("")?)),
        }
    }

    /// A total order for sorting values of any types: integers, then floats, then strings.
    pub fn total_cmp(a: &Value, b: &Value) -> Ordering {
        let rank = |v: &Value| match v {
            Value::Int(_) => 0,
            Value::Float(_) => 1,
            Value::Str(_) => 2,
        };
        rank(a)
            .cmp(&rank(b))
            .then_with(|| Value::compare(a, b).unwrap_or(Ordering::Equal))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{:?}", String::from_utf8_lossy(s)),
        }
    }
}

#[cfg(test)]
#[path = "value_tests.rs"]
mod tests;
