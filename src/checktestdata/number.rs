//! Integers of any size, an `i64` until a result overflows it, then a `BigInt`: the arithmetic
//! of the checktestdata language (GMP's: `/` rounds toward zero, `%` takes the dividend's sign),
//! within the interpreter's bounds. Going past a bound is a [`Fault`], never a silent rounding:
//! a number has at most [`MAX_DIGITS`] digits. Sizes are also counted in 64-bit words
//! ([`Int::words`]), by which [`super::budget`] weighs the work of an operation before it runs.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The most decimal digits a number may have.
pub const MAX_DIGITS: u64 = 100_000;
/// [`MAX_DIGITS`] in bits (log2(10) bits a digit).
const MAX_BITS: u64 = 332_193;
/// Whole decimal digits a 64-bit word holds (10^19 < 2^64).
const DIGITS_PER_WORD: u64 = 19;

/// The 64-bit words a number of `digits` decimal digits takes, at most.
pub fn words_of_digits(digits: u64) -> u64 {
    digits / DIGITS_PER_WORD + 1
}

/// The words reading a number written with `digits` digits touches: each word read multiplies
/// what was read before (schoolbook).
pub fn parse_work(digits: usize) -> u64 {
    let words = words_of_digits(digits as u64);
    words * words
}

/// Why a value could not be computed: always the script's doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    DivisionByZero,
    TooLarge,
    /// An operation on values of the wrong types: what was attempted.
    Type(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::DivisionByZero => write!(f, "division by zero"),
            Fault::TooLarge => write!(
                f,
                "a number beyond the interpreter's bounds ({MAX_DIGITS} digits, exponents up to \
                 10^15)"
            ),
            Fault::Type(what) => write!(f, "{what}"),
        }
    }
}

/// An integer; `Big` never holds one that fits in `i64`, so equal values are equal variants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    Big(Box<BigInt>),
}

impl Int {
    pub fn from_big(big: BigInt) -> Result<Int, Fault> {
        match i64::try_from(&big) {
            Ok(small) => Ok(Int::Small(small)),
            Err(_) if big.bits() > MAX_BITS => Err(Fault::TooLarge),
            Err(_) => Ok(Int::Big(Box::new(big))),
        }
    }

    /// The integer written with ASCII `digits` (at least one), negated when `negative`.
    pub fn parse(negative: bool, digits: &[u8]) -> Result<Int, Fault> {
        if digits.len() > MAX_DIGITS as usize {
            return Err(Fault::TooLarge);
        }
        if digits.len() <= 18 {
            let value = digits
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
            return Ok(Int::Small(if negative { -value } else { value }));
        }
        let big = BigInt::parse_bytes(digits, 10).expect("only digits are given");
        Int::from_big(if negative { -big } else { big })
    }

    pub fn big(&self) -> Cow<'_, BigInt> {
        match self {
            Int::Small(n) => Cow::Owned(BigInt::from(*n)),
            Int::Big(big) => Cow::Borrowed(big),
        }
    }

    pub fn signum(&self) -> i64 {
        match self {
            Int::Small(n) => n.signum(),
            Int::Big(big) if big.sign() == num_bigint::Sign::Minus => -1,
            Int::Big(_) => 1,
        }
    }

    /// Bits of the magnitude.
    pub fn bits(&self) -> u64 {
        match self {
            Int::Small(n) => u64::from(64 - n.unsigned_abs().leading_zeros()),
            Int::Big(big) => big.bits(),
        }
    }

    /// The 64-bit words of the magnitude (at least one).
    pub fn words(&self) -> u64 {
        match self {
            Int::Small(_) => 1,
            Int::Big(big) => big.bits().div_ceil(64),
        }
    }

    /// The words [`Int::pow`] touches for `exponent`: the square of its result's words (the
    /// squarings, schoolbook-counted), known before anything is computed; a power refused as
    /// too large costs nothing.
    pub fn pow_work(&self, exponent: u64) -> u64 {
        match self {
            Int::Small(-1..=1) => return 1,
            _ if exponent == 0 => return 1,
            _ => {}
        }
        if (self.bits() - 1).saturating_mul(exponent) >= MAX_BITS {
            return 1;
        }
        let words = (self.bits() * exponent).div_ceil(64);
        words * words
    }

    pub fn to_u64(&self) -> Option<u64> {
        match self {
            Int::Small(n) => u64::try_from(*n).ok(),
            Int::Big(big) => big.to_u64(),
        }
    }

    pub fn add(&self, other: &Int) -> Result<Int, Fault> {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) if a.checked_add(*b).is_some() => Ok(Int::Small(a + b)),
            _ => Int::from_big(self.big().as_ref() + other.big().as_ref()),
        }
    }

    pub fn sub(&self, other: &Int) -> Result<Int, Fault> {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Int) -> Result<Int, Fault> {
        if let (Int::Small(a), Int::Small(b)) = (self, other) {
            if let Some(product) = a.checked_mul(*b) {
                return Ok(Int::Small(product));
            }
        }
        if self.bits() + other.bits() > MAX_BITS + 1 {
            return Err(Fault::TooLarge);
        }
        Int::from_big(self.big().as_ref() * other.big().as_ref())
    }

    /// The quotient rounded toward zero, as GMP's and C's `/`.
    pub fn div(&self, other: &Int) -> Result<Int, Fault> {
        match (self, other) {
            (_, Int::Small(0)) => Err(Fault::DivisionByZero),
            (Int::Small(a), Int::Small(b)) if a.checked_div(*b).is_some() => Ok(Int::Small(a / b)),
            _ => Int::from_big(self.big().as_ref() / other.big().as_ref()),
        }
    }

    /// The remainder of [`Int::div`]: its sign is the dividend's.
    pub fn rem(&self, other: &Int) -> Result<Int, Fault> {
        match (self, other) {
            (_, Int::Small(0)) => Err(Fault::DivisionByZero),
            (Int::Small(a), Int::Small(b)) => Ok(Int::Small(a.checked_rem(*b).unwrap_or(0))),
            _ => Int::from_big(self.big().as_ref() % other.big().as_ref()),
        }
    }

    pub fn neg(&self) -> Int {
        match self {
            Int::Small(n) => n
                .checked_neg()
                .map_or_else(|| Int::Big(Box::new(-BigInt::from(*n))), Int::Small),
            Int::Big(big) => Int::from_big(-big.as_ref().clone()).expect("same size"),
        }
    }

    pub fn pow(&self, exponent: u64) -> Result<Int, Fault> {
        match self {
            Int::Small(0) if exponent > 0 => return Ok(Int::Small(0)),
            Int::Small(1) => return Ok(Int::Small(1)),
            Int::Small(-1) => {
                return Ok(Int::Small(if exponent.is_multiple_of(2) { 1 } else { -1 }))
            }
            _ if exponent == 0 => return Ok(Int::Small(1)),
            _ => {}
        }
        // |self| >= 2, so the result has at least (bits - 1) * exponent + 1 bits.
        if (self.bits() - 1).saturating_mul(exponent) >= MAX_BITS {
            return Err(Fault::TooLarge);
        }
        let exponent = u32::try_from(exponent).expect("bounded by MAX_BITS");
        if let Int::Small(n) = self {
            if let Some(power) = n.checked_pow(exponent) {
                return Ok(Int::Small(power));
            }
        }
        Int::from_big(self.big().pow(exponent))
    }

    /// 10^k.
    pub fn pow10(k: u64) -> Result<Int, Fault> {
        Int::Small(10).pow(k)
    }

    /// `self` with its trailing decimal zeros taken off, and how many there were: eighteen at a
    /// time, then one at a time, so a number of `d` digits takes about d / 18 divisions by a
    /// word ([`Int::strip_zeros_work`]).
    pub fn strip_zeros(&self) -> (Int, i64) {
        let (mut n, mut zeros) = (self.clone(), 0);
        for (divisor, digits) in [(Int::Small(10i64.pow(18)), 18), (Int::Small(10), 1)] {
            while n.signum() != 0 && n.rem(&divisor) == Ok(Int::Small(0)) {
                n = n.div(&divisor).expect("the divisor is not zero");
                zeros += digits;
            }
        }
        (n, zeros)
    }

    /// The words [`Int::strip_zeros`] touches, at most: a remainder and a quotient of the whole
    /// number by a word for each of its words (eighteen zeros or more each) and for each of the
    /// last seventeen zeros, and the remainder that ends each loop.
    pub fn strip_zeros_work(&self) -> u64 {
        let words = self.words();
        2 * (words + 18) * words
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.big().cmp(&other.big()),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(n) => write!(f, "{n}"),
            Int::Big(big) => write!(f, "{big}"),
        }
    }
}
