//! Floats held exactly as decimals, an integer mantissa times a power of ten: every float an
//! input or a script can write is one, so reading and comparing are exact (DOMjudge's GMP floats
//! have 256 bits). Sums, differences and products are exact too; a quotient keeps
//! [`QUOTIENT_DIGITS`] significant digits, truncated. The exponent stays within
//! [`MAX_EXPONENT`] either way. Each operation says beforehand what it will touch, in 64-bit
//! words (`*_work`), for [`super::budget`]: aligning two exponents multiplies by a power of ten.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;

use super::number::{words_of_digits, Fault, Int, MAX_DIGITS};

/// The largest power of ten a float may carry, either way.
pub const MAX_EXPONENT: i64 = 1_000_000_000_000_000;
/// Significant digits of a float quotient (truncated).
const QUOTIENT_DIGITS: i64 = 80;
const LOG10_2: f64 = std::f64::consts::LOG10_2;

/// A float: `mantissa * 10^exponent`, exactly; not kept in lowest terms (1.50 is 150e-2).
#[derive(Clone, Debug)]
pub struct Dec {
    mantissa: Int,
    exponent: i64,
}

impl Dec {
    pub fn new(mantissa: Int, exponent: i64) -> Result<Dec, Fault> {
        if mantissa.signum() == 0 {
            return Ok(Dec::from(Int::Small(0)));
        }
        if exponent.unsigned_abs() > MAX_EXPONENT.unsigned_abs() {
            return Err(Fault::TooLarge);
        }
        Ok(Dec { mantissa, exponent })
    }

    /// The float written `[-]whole.fraction` times 10^`exponent` (ASCII digits).
    pub fn parse(
        negative: bool,
        whole: &[u8],
        fraction: &[u8],
        exponent: i64,
    ) -> Result<Dec, Fault> {
        let mut digits = Vec::with_capacity(whole.len() + fraction.len());
        digits.extend_from_slice(whole);
        digits.extend_from_slice(fraction);
        let trailing = digits.iter().rev().take_while(|&&d| d == b'0').count();
        let leading = digits.iter().take_while(|&&d| d == b'0').count();
        if leading == digits.len() {
            return Ok(Dec::from(Int::Small(0)));
        }
        let significant = &digits[leading..digits.len() - trailing];
        let exponent = exponent
            .checked_sub(fraction.len() as i64)
            .and_then(|e| e.checked_add(trailing as i64));
        Dec::new(
            Int::parse(negative, significant)?,
            exponent.ok_or(Fault::TooLarge)?,
        )
    }

    /// The mantissa scaled by 10^`by`, with no bound: only comparisons use it, whose shifts the
    /// operands' own sizes bound.
    fn scaled(&self, by: u64) -> BigInt {
        let ten = BigInt::from(10);
        self.mantissa.big().as_ref() * ten.pow(u32::try_from(by).unwrap_or(u32::MAX))
    }

    /// Bounds of log10 of the magnitude (the mantissa is not zero): [low, low + log10(2)).
    fn magnitude(&self) -> f64 {
        self.exponent as f64 + (self.mantissa.bits() as f64 - 1.0) * LOG10_2
    }

    pub fn mantissa(&self) -> &Int {
        &self.mantissa
    }

    /// The words of the mantissa.
    pub fn words(&self) -> u64 {
        self.mantissa.words()
    }

    /// The words [`Dec::add`] touches: aligning the higher exponent's mantissa (a power of ten
    /// and a product with it), then the sum.
    pub fn add_work(&self, other: &Dec) -> u64 {
        let shift = self.exponent.abs_diff(other.exponent);
        if shift > MAX_DIGITS {
            return 1;
        }
        let high = if self.exponent >= other.exponent {
            self
        } else {
            other
        };
        shift_work(shift, high.words()) + self.words() + other.words()
    }

    pub fn add(&self, other: &Dec) -> Result<Dec, Fault> {
        let (high, low) = if self.exponent >= other.exponent {
            (self, other)
        } else {
            (other, self)
        };
        let shift = high.exponent.abs_diff(low.exponent);
        if shift > MAX_DIGITS {
            return Err(Fault::TooLarge);
        }
        let aligned = high.mantissa.mul(&Int::pow10(shift)?)?;
        Dec::new(aligned.add(&low.mantissa)?, low.exponent)
    }

    pub fn mul(&self, other: &Dec) -> Result<Dec, Fault> {
        let exponent = self.exponent.checked_add(other.exponent);
        Dec::new(
            self.mantissa.mul(&other.mantissa)?,
            exponent.ok_or(Fault::TooLarge)?,
        )
    }

    pub fn mul_work(&self, other: &Dec) -> u64 {
        self.words() * other.words()
    }

    /// The digits [`Dec::div`] scales the dividend by, for [`QUOTIENT_DIGITS`] in the quotient.
    fn quotient_scale(&self, other: &Dec) -> u64 {
        let digits = |n: &Int| (n.bits() as f64 * LOG10_2) as i64;
        (QUOTIENT_DIGITS + digits(&other.mantissa) - digits(&self.mantissa) + 2).max(0) as u64
    }

    /// The words [`Dec::div`] touches: scaling the dividend, then the schoolbook quotient.
    pub fn div_work(&self, other: &Dec) -> u64 {
        let scale = self.quotient_scale(other);
        let scaled = self.words() + words_of_digits(scale);
        shift_work(scale, self.words()) + scaled * other.words()
    }

    pub fn div(&self, other: &Dec) -> Result<Dec, Fault> {
        if other.mantissa.signum() == 0 {
            return Err(Fault::DivisionByZero);
        }
        let scale = self.quotient_scale(other);
        let scaled = self.mantissa.mul(&Int::pow10(scale)?)?;
        let exponent = self.exponent.checked_sub(other.exponent);
        let exponent = exponent.and_then(|e| e.checked_sub(scale as i64));
        Dec::new(
            scaled.div(&other.mantissa)?,
            exponent.ok_or(Fault::TooLarge)?,
        )
    }

    pub fn pow_work(&self, exponent: u64) -> u64 {
        self.mantissa.pow_work(exponent)
    }

    pub fn pow(&self, exponent: u64) -> Result<Dec, Fault> {
        let scaled = i64::try_from(exponent)
            .ok()
            .and_then(|e| self.exponent.checked_mul(e));
        Dec::new(self.mantissa.pow(exponent)?, scaled.ok_or(Fault::TooLarge)?)
    }

    pub fn neg(&self) -> Dec {
        Dec {
            mantissa: self.mantissa.neg(),
            exponent: self.exponent,
        }
    }

    /// The order of two numbers of the same sign that their magnitudes tell apart, if they do.
    fn order_by_magnitude(&self, other: &Dec) -> Option<Ordering> {
        let (low_a, low_b) = (self.magnitude(), other.magnitude());
        if low_a > low_b + 1.0 {
            Some(Ordering::Greater)
        } else if low_b > low_a + 1.0 {
            Some(Ordering::Less)
        } else {
            None
        }
    }

    /// The words [`Dec::compare`] touches: nothing much unless the magnitudes are close, then
    /// aligning one mantissa with the other and comparing them.
    pub fn compare_work(&self, other: &Dec) -> u64 {
        let (a, b) = (self.mantissa.signum(), other.mantissa.signum());
        if a != b || a == 0 || self.order_by_magnitude(other).is_some() {
            return 1;
        }
        let shift = self.exponent.abs_diff(other.exponent);
        let high = if self.exponent >= other.exponent {
            self
        } else {
            other
        };
        shift_work(shift, high.words())
            + 2 * (self.words() + other.words() + words_of_digits(shift))
    }

    /// The exact order. Magnitudes far apart are told by their logarithms; close ones by
    /// aligning the mantissas, whose shift is then no longer than the mantissas themselves.
    pub fn compare(&self, other: &Dec) -> Ordering {
        let (a, b) = (self.mantissa.signum(), other.mantissa.signum());
        if a != b || a == 0 {
            return a.cmp(&b);
        }
        if let Some(order) = self.order_by_magnitude(other) {
            return if a < 0 { order.reverse() } else { order };
        }
        let shift = self.exponent.abs_diff(other.exponent);
        if self.exponent >= other.exponent {
            self.scaled(shift).cmp(other.mantissa.big().as_ref())
        } else {
            self.mantissa.big().as_ref().cmp(&other.scaled(shift))
        }
    }

    /// The words [`Dec::normalized`] touches.
    pub fn normalized_work(&self) -> u64 {
        self.mantissa.strip_zeros_work()
    }

    /// The value in lowest terms, equal for equal values.
    pub fn normalized(&self) -> (Int, i64) {
        let (mantissa, zeros) = self.mantissa.strip_zeros();
        match mantissa {
            Int::Small(0) => (mantissa, 0),
            _ => (mantissa, self.exponent + zeros),
        }
    }
}

/// The words of shifting a mantissa of `words` words by `digits` decimal digits: the power of
/// ten (its squarings), then the product with it.
fn shift_work(digits: u64, words: u64) -> u64 {
    let shift = words_of_digits(digits);
    shift * shift + words * shift
}

impl From<Int> for Dec {
    fn from(mantissa: Int) -> Dec {
        Dec {
            mantissa,
            exponent: 0,
        }
    }
}

impl fmt::Display for Dec {
    /// Plain notation while it stays short, scientific beyond.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mantissa, exponent) = self.normalized();
        let sign = if mantissa.signum() < 0 { "-" } else { "" };
        let digits = mantissa.to_string().trim_start_matches('-').to_string();
        let length = digits.len() as i64;
        if (0..=20).contains(&exponent) {
            write!(f, "{sign}{digits}{}", "0".repeat(exponent as usize))
        } else if exponent < 0 && -exponent <= length + 20 {
            let point = length + exponent;
            if point > 0 {
                let (whole, fraction) = digits.split_at(point as usize);
                write!(f, "{sign}{whole}.{fraction}")
            } else {
                write!(f, "{sign}0.{}{digits}", "0".repeat((-point) as usize))
            }
        } else {
            let (first, rest) = digits.split_at(1);
            let point = if rest.is_empty() { "" } else { "." };
            write!(f, "{sign}{first}{point}{rest}e{}", exponent + length - 1)
        }
    }
}
