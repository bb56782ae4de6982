//! The input format of powers-of-two: one or more integers `n`, separated by any whitespace, up to
//! the end of the input. The solver and the brute force read through [`for_each_n`] too, so all
//! three accept and reject exactly the same inputs and word their errors the same way.
//!
//! An empty input (nothing but whitespace) is invalid: it holds no test, so any output would be
//! accepted for it, and a fixture that checks nothing is a mistake worth reporting.

use crate::{Constraints, InputError, Scanner, Source};
use std::io::BufRead;

/// The original judge's limit on `n`.
pub const ORIGINAL_MAX_N: u64 = 1000;
/// The extended limit on `n`: the pattern costs one division whatever `n` is.
pub const EXTENDED_MAX_N: u64 = 1_000_000_000_000_000_000;

/// The largest `n` the limits allow.
pub fn max_n(limits: Constraints) -> u64 {
    match limits {
        Constraints::Original => ORIGINAL_MAX_N,
        Constraints::Extended => EXTENDED_MAX_N,
    }
}

/// Reads every `n` of the whole input in order and hands it to `each` with the byte offset where
/// it starts; the first malformed or out-of-range token is the error.
pub fn for_each_n(
    input: &[u8],
    max_n: u64,
    each: impl FnMut(u64, usize),
) -> Result<(), InputError> {
    read(Scanner::new(input), max_n, each)
}

fn read<S: Source>(
    mut scanner: Scanner<S>,
    max_n: u64,
    mut each: impl FnMut(u64, usize),
) -> Result<(), InputError> {
    if scanner.at_end() {
        let end = scanner.offset();
        return Err(scanner.error_at(end, "the input holds no n; at least one is required"));
    }
    while !scanner.at_end() {
        let offset = scanner.offset();
        let n = scanner.u64_in("n", 1..=max_n)?;
        each(n, offset);
    }
    Ok(())
}

/// Streams the input: nothing is kept.
pub fn validate(input: &mut dyn BufRead, limits: Constraints) -> Result<(), InputError> {
    read(Scanner::from_reader(input), max_n(limits), |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(input: &[u8], limits: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, limits)
    }

    fn error(input: &str, limits: Constraints) -> String {
        validate(input.as_bytes(), limits).unwrap_err().to_string()
    }

    #[test]
    fn accepts_any_whitespace_and_the_limits() {
        for input in ["1\n3\n", "1000", " 7 \t 8\r\n9\n\n", "1 2 3"] {
            assert_eq!(validate(input.as_bytes(), Constraints::Original), Ok(()));
        }
        let big = "1000000000000000000\n1\n";
        assert_eq!(validate(big.as_bytes(), Constraints::Extended), Ok(()));
    }

    #[test]
    fn reports_the_first_violation_with_its_position() {
        let original = Constraints::Original;
        assert_eq!(
            error("5\n1001\n0\n", original),
            "line 2, column 1: n 1001 is above the limit 1000"
        );
        assert_eq!(
            error("5\n  0\n", original),
            "line 2, column 3: n 0 is below the minimum 1"
        );
        assert_eq!(
            error("1000000000000000001", Constraints::Extended),
            "line 1, column 1: n 1000000000000000001 is above the limit 1000000000000000000"
        );
        assert_eq!(
            error("12\n3a\n", original),
            "line 2, column 1: expected n (a non-negative integer), found `3a`"
        );
        assert_eq!(
            error("-4", original),
            "line 1, column 1: expected n (a non-negative integer), found `-4`"
        );
    }

    #[test]
    fn empty_input_is_invalid() {
        for input in ["", " \n\t\n"] {
            let message = error(input, Constraints::Extended);
            assert!(message.contains("holds no n"), "{message}");
        }
        assert!(error(" \n", Constraints::Original).starts_with("line 2, column 1:"));
    }

    #[test]
    fn extended_limits_contain_the_original_ones() {
        assert_eq!(max_n(Constraints::Original), 1000);
        assert!(max_n(Constraints::Original) <= max_n(Constraints::Extended));
    }
}
