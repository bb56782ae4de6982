//! The exact format and limits of set-nim (see `statement.md`): `k`, S, `n`, the heaps; S
//! distinct; heaps up to 10^4 (Original) or 10^18 with a period in reach (Extended).

use crate::support::{
    no_period_message, read_distinct_takes, SubtractionValues, DIRECT_TABLE_LIMIT,
};
use crate::{Constraints, InputError, Scanner, Source};
use std::io::BufRead;

pub(super) const MAX_COUNT: usize = 100;
pub(super) const MAX_TAKE: u64 = 10_000;
pub(super) const ORIGINAL_MAX_HEAP: u64 = 10_000;
pub(super) const EXTENDED_MAX_HEAP: u64 = 1_000_000_000_000_000_000;

/// A valid input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Instance {
    pub moves: Vec<u64>,
    pub heaps: Vec<u64>,
}

/// Streams the input; what it keeps is bounded by the limits (100 takes, 100 heaps).
pub fn validate(input: &mut dyn BufRead, limits: Constraints) -> Result<(), InputError> {
    read(Scanner::from_reader(input), limits).map(|_| ())
}

/// The input, if it meets the format and `limits`; else the first violation.
pub(super) fn parse(input: &[u8], limits: Constraints) -> Result<Instance, InputError> {
    read(Scanner::new(input), limits)
}

fn read<S: Source>(mut scanner: Scanner<S>, limits: Constraints) -> Result<Instance, InputError> {
    let max_heap = match limits {
        Constraints::Original => ORIGINAL_MAX_HEAP,
        Constraints::Extended => EXTENDED_MAX_HEAP,
    };
    let k = scanner.usize_in("k", 1..=MAX_COUNT)?;
    let moves = read_distinct_takes(&mut scanner, k, MAX_TAKE)?;
    let n = scanner.usize_in("n", 1..=MAX_COUNT)?;
    let mut heaps = Vec::with_capacity(n);
    let mut first_huge = None;
    for _ in 0..n {
        let offset = scanner.next_token_offset();
        let heap = scanner.u64_in("heap size", 1..=max_heap)?;
        if heap > DIRECT_TABLE_LIMIT && first_huge.is_none() {
            first_huge = Some((scanner.place(offset), heap));
        }
        heaps.push(heap);
    }
    if let Some((place, heap)) = first_huge {
        let largest = heaps.iter().copied().max().unwrap_or(0);
        if SubtractionValues::for_heaps(&moves, largest).is_none() {
            return Err(place.error(no_period_message(heap)));
        }
    }
    scanner.expect_end()?;
    Ok(Instance { moves, heaps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Constraints::{Extended, Original};

    fn validate(input: &[u8], limits: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, limits)
    }

    #[test]
    fn accepts_the_sample_any_spacing_and_extended_heaps() {
        assert_eq!(validate(b"2\n2 5\n3\n2 4 7\n", Original), Ok(()));
        assert_eq!(validate(b"2 5 2 3 2\t4\r\n7", Original), Ok(()));
        let huge = b"3\n1 3 4\n2\n1000000000000000000 10000\n";
        assert_eq!(validate(huge, Extended), Ok(()));
        let instance = parse(huge, Extended).unwrap();
        assert_eq!(instance.moves, [1, 3, 4]);
        assert_eq!(instance.heaps, [1_000_000_000_000_000_000, 10_000]);
    }

    #[test]
    fn rejects_each_rule_with_line_column_and_message() {
        let cases: &[(&[u8], Constraints, &str)] = &[
            (b"", Original, "line 1, column 1: expected k (a non-negative integer), found end of input"),
            (b"0\n\n1\n1\n", Original, "line 1, column 1: k 0 is below the minimum 1"),
            (b"101\n", Extended, "line 1, column 1: k 101 is above the limit 100"),
            (b"2\n2 0\n1\n1\n", Original, "line 2, column 3: take 0 is below the minimum 1"),
            (b"2\n10001 5\n1\n1\n", Extended, "line 2, column 1: take 10001 is above the limit 10000"),
            (b"3\n2 5 2\n1\n1\n", Original, "line 2, column 5: take 2 appears twice in S (first at line 2, column 1); the takes must be distinct"),
            (b"2\n2 5\n0\n", Original, "line 3, column 1: n 0 is below the minimum 1"),
            (b"2\n2 5\n101\n", Original, "line 3, column 1: n 101 is above the limit 100"),
            (b"2\n2 5\n3\n2 0 7\n", Original, "line 4, column 3: heap size 0 is below the minimum 1"),
            (b"2\n2 5\n3\n2 4 10001\n", Original, "line 4, column 5: heap size 10001 is above the limit 10000"),
            (b"1\n1\n1\n1000000000000000001\n", Extended, "line 4, column 1: heap size 1000000000000000001 is above the limit 1000000000000000000"),
            (b"2\n2 5\n3\n2 4\n", Original, "line 5, column 1: expected heap size (a non-negative integer), found end of input"),
            (b"2\n2 5\n3\n2 4", Original, "line 4, column 4: expected heap size (a non-negative integer), found end of input"),
            (b"2\n2 five\n", Original, "line 2, column 3: expected take (a non-negative integer), found `five`"),
            (b"2\n2 5\n3\n2 4 7\n8\n", Original, "line 5, column 1: unexpected `8` after the end of the input"),
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
    fn extended_heaps_need_a_period_in_reach() {
        let takes = crate::test_support::takes_without_a_period_in_reach();
        let mut sorted = takes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 100, "the takes must be distinct");
        let list: Vec<String> = takes.iter().map(u64::to_string).collect();
        let input = format!("100\n{}\n2\n5 2000000\n", list.join(" "));
        let err = validate(input.as_bytes(), Extended).unwrap_err();
        assert_eq!((err.line, err.column), (4, 3));
        assert_eq!(err.message, no_period_message(2_000_000));
        // The same takes are fine while every heap fits the direct table.
        let input = format!("100\n{}\n2\n5 1048576\n", list.join(" "));
        assert_eq!(validate(input.as_bytes(), Extended), Ok(()));
    }
}
