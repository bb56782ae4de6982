//! The input under check: a cursor over its bytes, the number tokens as DOMjudge reads them, and
//! where a byte offset is for people (line and column are counted only when a message needs
//! them).
//!
//! Integers are `0|-?[1-9][0-9]*`; floats `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?(0|[1-9][0-9]*))?`,
//! the exponent forbidden by FIXED and required by SCIENTIFIC; FLOATP counts the decimals and,
//! with an exponent, wants one non-zero digit, a dot, then the decimals (DOMjudge's reading).

use std::fmt::Write;

use super::ast::Notation;
use super::decimal::Dec;
use super::number::{Fault, Int, MAX_DIGITS};

/// Bytes of the input shown after "found".
const SHOWN: usize = 24;

pub struct Input<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

/// A number token read: its value, or why its text is not one (the cursor then stays past
/// what was read).
pub enum Read<T> {
    Value(T),
    Malformed(&'static str),
    /// An integer too long to be in the range asked for, or a value beyond the interpreter.
    Beyond,
}

/// A float's shape, for FLOATP's decimals.
pub struct FloatShape {
    pub decimals: usize,
    /// Written with an exponent and not as one non-zero digit, a dot and decimals.
    pub not_normalised: bool,
}

impl Input<'_> {
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    pub fn at_end(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// The digits at the cursor, which moves past them.
    fn digits(&mut self) -> std::ops::Range<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        start..self.at
    }

    /// An integer, if it could be in [`min`, `max`]: longer than both bounds, it is not read.
    pub fn integer(&mut self, min: &Int, max: &Int) -> Read<Int> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let digits = &self.bytes[self.digits()];
        match digits {
            [] if !negative => return Read::Malformed("not an integer"),
            [] | [b'0', ..] if negative => {
                return Read::Malformed(
                    "a minus sign without a non-zero integer (-0 is not allowed)",
                )
            }
            [b'0', _, ..] => return Read::Malformed("leading zeros"),
            _ => {}
        }
        // A number with more digits than both bounds' (and than any value may have) is outside
        // them; reading it would cost time quadratic in its length.
        let widest = min.bits().max(max.bits()) as f64 * std::f64::consts::LOG10_2 + 2.0;
        if digits.len() as f64 > widest || digits.len() as u64 > MAX_DIGITS {
            return Read::Beyond;
        }
        match Int::parse(negative, digits) {
            Ok(value) => Read::Value(value),
            Err(_) => Read::Beyond,
        }
    }

    /// A float in the given notation.
    pub fn float(&mut self, notation: Notation) -> Read<(Dec, FloatShape)> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let whole = self.digits();
        match &self.bytes[whole.clone()] {
            [] => return Read::Malformed("not a float"),
            [b'0', _, ..] => return Read::Malformed("leading zeros"),
            _ => {}
        }
        let has_dot = self.peek() == Some(b'.');
        let mut fraction = self.at..self.at;
        if has_dot {
            self.at += 1;
            fraction = self.digits();
            if fraction.is_empty() {
                return Read::Malformed("no digit after the dot");
            }
        }
        let wants_exponent = match notation {
            Notation::Scientific => true,
            Notation::Fixed => false,
            Notation::Any => matches!(self.peek(), Some(b'e' | b'E')),
        };
        let mut exponent = 0i64;
        if wants_exponent {
            match self.exponent() {
                Ok(value) => exponent = value,
                Err(why) => return Read::Malformed(why),
            }
        }
        let (whole, fraction) = (&self.bytes[whole], &self.bytes[fraction]);
        let shape = FloatShape {
            decimals: fraction.len(),
            not_normalised: wants_exponent && (whole.len() != 1 || whole[0] == b'0' || !has_dot),
        };
        match Dec::parse(negative, whole, fraction, exponent) {
            Ok(value) => Read::Value((value, shape)),
            Err(Fault::TooLarge | Fault::DivisionByZero | Fault::Type(_)) => Read::Beyond,
        }
    }

    /// An exponent: `e` or `E`, a sign, digits without leading zeros.
    fn exponent(&mut self) -> Result<i64, &'static str> {
        if !matches!(self.peek(), Some(b'e' | b'E')) {
            return Err("no exponent (the float must be in scientific notation)");
        }
        self.at += 1;
        let negative = match self.peek() {
            Some(b'-') => true,
            Some(b'+') => false,
            _ => {
                return self.exponent_digits(false);
            }
        };
        self.at += 1;
        self.exponent_digits(negative)
    }

    fn exponent_digits(&mut self, negative: bool) -> Result<i64, &'static str> {
        let digits = &self.bytes[self.digits()];
        match digits {
            [] => Err("no digit in the exponent"),
            [b'0', _, ..] => Err("leading zeros in the exponent"),
            // Beyond what any value may carry: read as too large, not as malformed.
            _ if digits.len() > 18 => Ok(if negative { i64::MIN } else { i64::MAX }),
            _ => {
                let value = digits
                    .iter()
                    .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
                Ok(if negative { -value } else { value })
            }
        }
    }

    /// The 1-based line and column (in bytes) of offset `at`.
    pub fn location(&self, at: usize) -> (usize, usize) {
        let before = &self.bytes[..at.min(self.bytes.len())];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&c| c != b'\n').count() + 1;
        (line, column)
    }

    /// What the input has at `at`, for "found ...": the word there (or the one whitespace
    /// byte), escaped and quoted, or the end of the input.
    pub fn found(&self, at: usize) -> String {
        let rest = &self.bytes[at.min(self.bytes.len())..];
        if rest.is_empty() {
            return "the end of the input".into();
        }
        let word = if rest[0].is_ascii_whitespace() {
            &rest[..1]
        } else {
            let length = rest.iter().take_while(|c| !c.is_ascii_whitespace()).count();
            &rest[..length.min(SHOWN)]
        };
        let mut shown = String::from("\"");
        for &byte in word {
            match byte {
                b'"' | b'\\' => write!(shown, "\\{}", byte as char),
                b'\n' => write!(shown, "\\n"),
                b'\t' => write!(shown, "\\t"),
                b'\r' => write!(shown, "\\r"),
                0x20..=0x7e => write!(shown, "{}", byte as char),
                _ => write!(shown, "\\x{byte:02x}"),
            }
            .expect("writing to a string");
        }
        shown.push('"');
        if word.len() < rest.len() && !rest[0].is_ascii_whitespace() && word.len() == SHOWN {
            shown.push('…');
        }
        shown
    }
}
