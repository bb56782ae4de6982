//! The exact format: one position per non-blank line, heap sizes as non-negative integers,
//! at least one position; `0 <= h <= 10^18` (Original) or `h < 2^64` (Extended).

use crate::{Constraints, InputError, Scanner, Source};
use std::io::BufRead;

const ORIGINAL_MAX_HEAP: u64 = 1_000_000_000_000_000_000;

/// Streams the input: no line is ever held whole (the format puts no limit on its length).
pub fn validate(input: &mut dyn BufRead, limits: Constraints) -> Result<(), InputError> {
    read(&mut Scanner::from_reader(input), limits, |_, _| {})
}

/// The positions of a valid input, one per non-blank line.
pub(super) fn parse(input: &[u8], limits: Constraints) -> Result<Vec<Vec<u64>>, InputError> {
    let mut positions: Vec<Vec<u64>> = Vec::new();
    read(&mut Scanner::new(input), limits, |position, heap| {
        if position == positions.len() {
            positions.push(Vec::new());
        }
        positions[position].push(heap);
    })?;
    Ok(positions)
}

/// Hands every heap to `each` with the index of its position, in input order, or stops at the
/// first violation.
fn read<S: Source>(
    scanner: &mut Scanner<S>,
    limits: Constraints,
    mut each: impl FnMut(usize, u64),
) -> Result<(), InputError> {
    let max_heap = match limits {
        Constraints::Original => ORIGINAL_MAX_HEAP,
        Constraints::Extended => u64::MAX,
    };
    let mut positions = 0;
    while !scanner.at_end() {
        while scanner.token_on_line() {
            each(positions, scanner.u64_in("heap size", 0..=max_heap)?);
        }
        positions += 1;
    }
    if positions == 0 {
        let end = scanner.offset();
        return Err(scanner.error_at(
            end,
            "expected at least one position (a line of heap sizes), found end of input",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Constraints::{Extended, Original};

    fn validate(input: &[u8], limits: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, limits)
    }

    #[test]
    fn accepts_the_sample_and_free_spacing() {
        assert_eq!(validate(b"1 2 3\n", Original), Ok(()));
        assert_eq!(
            validate(b"\n0\t 0\r\n\n  1000000000000000000\n", Original),
            Ok(())
        );
        assert_eq!(validate(b"18446744073709551615 7", Extended), Ok(()));
        assert_eq!(
            parse(b"1 2\n\n3\n", Original).unwrap(),
            [vec![1, 2], vec![3]]
        );
    }

    #[test]
    fn rejects_each_rule_with_line_column_and_message() {
        let cases: &[(&[u8], Constraints, &str)] = &[
            (b"", Original, "line 1, column 1: expected at least one position (a line of heap sizes), found end of input"),
            (b"\n \n", Original, "line 3, column 1: expected at least one position (a line of heap sizes), found end of input"),
            (b"1 2\n3 1000000000000000001\n", Original, "line 2, column 3: heap size 1000000000000000001 is above the limit 1000000000000000000"),
            (b"18446744073709551616\n", Extended, "line 1, column 1: heap size `18446744073709551616` is too large"),
            (b"1\n -1\n", Original, "line 2, column 2: expected heap size (a non-negative integer), found `-1`"),
            (b"1 2\n3 4x\n", Extended, "line 2, column 3: expected heap size (a non-negative integer), found `4x`"),
            (b"1 two\n", Original, "line 1, column 3: expected heap size (a non-negative integer), found `two`"),
            (b"1.5\n", Original, "line 1, column 1: expected heap size (a non-negative integer), found `1.5`"),
        ];
        for &(input, limits, expected) in cases {
            let err = validate(input, limits).unwrap_err();
            assert_eq!(
                err.to_string(),
                expected,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn the_first_violation_is_the_one_reported() {
        let err = validate(b"1000000000000000001\nx\n", Original).unwrap_err();
        assert_eq!((err.line, err.column), (1, 1));
    }
}
