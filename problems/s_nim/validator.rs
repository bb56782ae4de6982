//! The exact format and limits of s-nim (see `statement.md`): test cases of `k`, S, `m` and `m`
//! positions (`l` and `l` heaps), ended by a `0`; heaps up to 10^4 (Original) or 10^18 with a
//! period in reach (Extended).

use crate::support::{no_period_message, read_takes, SubtractionValues, DIRECT_TABLE_LIMIT};
use crate::{Constraints, InputError, Scanner, Source};
use std::io::BufRead;

pub(super) const MAX_COUNT: u64 = 100;
pub(super) const MAX_TAKE: u64 = 10_000;
pub(super) const ORIGINAL_MAX_HEAP: u64 = 10_000;
pub(super) const EXTENDED_MAX_HEAP: u64 = 1_000_000_000_000_000_000;

/// One test case of a valid input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TestCase {
    pub moves: Vec<u64>,
    pub positions: Vec<Vec<u64>>,
}

/// Streams the input, one test case in memory at a time (at most 100 positions of 100 heaps).
pub fn validate(input: &mut dyn BufRead, limits: Constraints) -> Result<(), InputError> {
    read(&mut Scanner::from_reader(input), limits, |_| {})
}

/// The test cases, if the input meets the format and `limits`; else the first violation.
pub(super) fn parse(input: &[u8], limits: Constraints) -> Result<Vec<TestCase>, InputError> {
    let mut cases = Vec::new();
    read(&mut Scanner::new(input), limits, |case| cases.push(case))?;
    Ok(cases)
}

/// Hands every test case to `each`, in input order, or stops at the first violation.
fn read<S: Source>(
    scanner: &mut Scanner<S>,
    limits: Constraints,
    mut each: impl FnMut(TestCase),
) -> Result<(), InputError> {
    let max_heap = match limits {
        Constraints::Original => ORIGINAL_MAX_HEAP,
        Constraints::Extended => EXTENDED_MAX_HEAP,
    };
    loop {
        if scanner.at_end() {
            let end = scanner.offset();
            return Err(scanner.error_at(end, "the input ends without the terminating line `0`"));
        }
        let k = scanner.u64_in("k", 0..=MAX_COUNT)?;
        if k == 0 {
            break;
        }
        let moves = read_takes(scanner, k as usize, MAX_TAKE)?;
        let m = scanner.u64_in("m", 1..=MAX_COUNT)?;
        let mut positions = Vec::new();
        let mut first_huge = None;
        for _ in 0..m {
            let l = scanner.u64_in("l", 1..=MAX_COUNT)?;
            let mut heaps = Vec::new();
            for _ in 0..l {
                let offset = scanner.next_token_offset();
                let heap = scanner.u64_in("heap size", 0..=max_heap)?;
                if heap > DIRECT_TABLE_LIMIT && first_huge.is_none() {
                    first_huge = Some((scanner.place(offset), heap));
                }
                heaps.push(heap);
            }
            positions.push(heaps);
        }
        if let Some((place, heap)) = first_huge {
            let largest = positions.iter().flatten().copied().max().unwrap_or(0);
            if SubtractionValues::for_heaps(&moves, largest).is_none() {
                return Err(place.error(no_period_message(heap)));
            }
        }
        each(TestCase { moves, positions });
    }
    scanner.expect_end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Constraints::{Extended, Original};

    fn validate(input: &[u8], limits: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, limits)
    }

    const SAMPLE: &[u8] =
        b"2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";

    #[test]
    fn accepts_the_sample_and_its_variants() {
        assert_eq!(validate(SAMPLE, Original), Ok(()));
        let cases = parse(SAMPLE, Original).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].moves, [1, 2, 3, 4, 5]);
        assert_eq!(cases[0].positions[2], [2, 3, 7, 12]);
        assert_eq!(validate(b"0", Original), Ok(()));
        assert_eq!(validate(b"3 5 5 1 1 1 0 0\r\n", Original), Ok(()));
        assert_eq!(
            validate(b"3 1 3 4\n1\n2 1000000000000000000 0\n0\n", Extended),
            Ok(())
        );
    }

    #[test]
    fn rejects_each_rule_with_line_column_and_message() {
        let cases: &[(&[u8], Constraints, &str)] = &[
            (b"", Original, "line 1, column 1: the input ends without the terminating line `0`"),
            (b"1 1\n1\n1 0\n", Original, "line 4, column 1: the input ends without the terminating line `0`"),
            (b"101\n", Extended, "line 1, column 1: k 101 is above the limit 100"),
            (b"2 0 5\n", Original, "line 1, column 3: take 0 is below the minimum 1"),
            (b"2 2 10001\n", Extended, "line 1, column 5: take 10001 is above the limit 10000"),
            (b"1 1\n0\n", Original, "line 2, column 1: m 0 is below the minimum 1"),
            (b"1 1\n101\n", Original, "line 2, column 1: m 101 is above the limit 100"),
            (b"1 1\n1\n0\n0\n", Original, "line 3, column 1: l 0 is below the minimum 1"),
            (b"1 1\n1\n101 1\n0\n", Original, "line 3, column 1: l 101 is above the limit 100"),
            (b"1 1\n1\n2 3 10001\n0\n", Original, "line 3, column 5: heap size 10001 is above the limit 10000"),
            (b"1 1\n1\n1 1000000000000000001\n0\n", Extended, "line 3, column 3: heap size 1000000000000000001 is above the limit 1000000000000000000"),
            (b"1 1\n2\n1 5\n2 5", Original, "line 4, column 4: expected heap size (a non-negative integer), found end of input"),
            (b"1 1\n1\n1 x\n0\n", Original, "line 3, column 3: expected heap size (a non-negative integer), found `x`"),
            (b"1 1\n1\n1 1\n0\n1 1\n", Original, "line 5, column 1: unexpected `1` after the end of the input"),
            (b"0 trailing", Original, "line 1, column 3: unexpected `trailing` after the end of the input"),
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
    fn extended_heaps_need_a_period_in_reach_per_test_case() {
        let takes = crate::test_support::takes_without_a_period_in_reach();
        let list: Vec<String> = takes.iter().map(u64::to_string).collect();
        let hopeless = format!(
            "2 1 2\n1\n1 5000000\n100 {}\n1\n2 7 2000000\n0\n",
            list.join(" ")
        );
        let err = validate(hopeless.as_bytes(), Extended).unwrap_err();
        assert_eq!((err.line, err.column), (6, 5));
        assert_eq!(err.message, no_period_message(2_000_000));
        let fine = format!(
            "2 1 2\n1\n1 5000000\n100 {}\n1\n2 7 1048576\n0\n",
            list.join(" ")
        );
        assert_eq!(validate(fine.as_bytes(), Extended), Ok(()));
    }
}
