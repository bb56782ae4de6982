//! The values of the checktestdata language: integers ([`Int`]), floats ([`Dec`]) and byte
//! strings, and what the language does with them: arithmetic (integer when both sides are,
//! float otherwise; none on strings), comparisons (numbers with numbers, strings bytewise), and
//! keys for hashing that keep the types apart, as DOMjudge's arrays do; and what each of these
//! touches, in 64-bit words (`*_work`), and what a value holds, in bytes
//! ([`Value::held_bytes`]), for [`super::budget`].

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

/// What a big integer holds besides its words: the `BigInt` in its box, and the two
/// allocations' bookkeeping.
const BIG_INT_BYTES: u64 = 48;
/// What a string holds besides its bytes: the shared allocation's counts and bookkeeping.
const STRING_BYTES: u64 = 32;

impl Value {
    /// The words a copy of the value touches (a string is shared, not copied).
    pub fn words(&self) -> u64 {
        match self {
            Value::Int(n) => n.words(),
            Value::Float(x) => x.words(),
            Value::Str(_) => 1,
        }
    }

    /// Whether it is a number of one word (an integer, or a float's mantissa), which costs
    /// nothing beyond the step of what reads or compares it.
    pub fn fits_a_word(&self) -> bool {
        match self {
            Value::Int(n) => matches!(n, Int::Small(_)),
            Value::Float(x) => matches!(x.mantissa(), Int::Small(_)),
            Value::Str(_) => false,
        }
    }

    /// The bytes the value holds outside itself.
    pub fn held_bytes(&self) -> u64 {
        match self {
            Value::Int(n) => held_by(n),
            Value::Float(x) => held_by(x.mantissa()),
            Value::Str(s) => s.len() as u64 + STRING_BYTES,
        }
    }

    /// The words [`Value::key`] touches: the number in lowest terms, or the string's bytes
    /// (hashed with it).
    pub fn key_work(&self) -> u64 {
        match self {
            Value::Int(n) => n.words(),
            Value::Float(x) => x.normalized_work(),
            Value::Str(s) => string_words(s),
        }
    }

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

    /// The words [`Value::pow`] touches, known before it computes anything.
    pub fn pow_work(a: &Value, b: &Value) -> u64 {
        match (a, exponent(b)) {
            (Value::Int(n), Some(exponent)) => n.pow_work(exponent),
            (Value::Float(x), Some(exponent)) => x.pow_work(exponent),
            _ => 1,
        }
    }

    /// `a ^ b`, `b` an integer in [0, 2^64) as DOMjudge's unsigned long.
    pub fn pow(a: &Value, b: &Value) -> Result<Value, Fault> {
        let exponent = exponent(b).ok_or_else(|| {
            Fault::Type(format!(
                "the exponent {b} is not an integer in [0, 2^64): `^` takes no other"
            ))
        })?;
        match a {
            Value::Int(n) => n.pow(exponent).map(Value::Int),
            _ => a.number("a power")?.pow(exponent).map(Value::Float),
        }
    }

    /// The words [`Value::arith`] touches: a sum of integers their words, a product, quotient or
    /// remainder the product of their words (schoolbook), floats as [`Dec`] weighs them.
    pub fn arith_work(op: Arith, a: &Value, b: &Value) -> u64 {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            return match op {
                Arith::Add | Arith::Sub => x.words() + y.words(),
                Arith::Mul | Arith::Div | Arith::Rem => x.words() * y.words(),
            };
        }
        let (Ok(x), Ok(y)) = (a.number(""), b.number("")) else {
            return 1;
        };
        a.words()
            + b.words()
            + match op {
                Arith::Add | Arith::Sub => x.add_work(&y),
                Arith::Mul => x.mul_work(&y),
                Arith::Div => x.div_work(&y),
                Arith::Rem => 1,
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

    /// The words [`Value::compare`] touches.
    pub fn compare_work(a: &Value, b: &Value) -> u64 {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => x.words() + y.words(),
            (Value::Str(x), Value::Str(y)) => string_words(x) + string_words(y),
            (Value::Str(_), _) | (_, Value::Str(_)) => 1,
            _ => match (a.number(""), b.number("")) {
                (Ok(x), Ok(y)) => a.words() + b.words() + x.compare_work(&y),
                _ => 1,
            },
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

impl Key {
    /// The bytes the key holds outside itself (a string's are counted as its own: it may
    /// outlive the value it was made from).
    pub fn held_bytes(&self) -> u64 {
        match self {
            Key::Int(n) | Key::Float(n, _) => held_by(n),
            Key::Str(s) => s.len() as u64 + STRING_BYTES,
        }
    }
}

/// The bytes an integer holds outside itself.
pub fn held_by(n: &Int) -> u64 {
    match n {
        Int::Small(_) => 0,
        Int::Big(_) => 8 * n.words() + BIG_INT_BYTES,
    }
}

/// An exponent of `^`: an integer in [0, 2^64).
fn exponent(b: &Value) -> Option<u64> {
    match b {
        Value::Int(n) => n.to_u64(),
        _ => None,
    }
}

/// The words of a string's bytes.
pub fn string_words(bytes: &[u8]) -> u64 {
    (bytes.len() as u64).div_ceil(8).max(1)
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
