//! The exact format and limits of s-nim-move (see `statement.md`): `k` and S (distinct), `m`, then
//! `m` positions of `l` heaps. One test case per input; the extended limits are the original ones.

use crate::support::{read_distinct_takes, read_takes};
use crate::{Constraints, InputError, Scanner, Source};
use std::io::BufRead;

pub(super) const MAX_COUNT: usize = 100;
pub(super) const MAX_TAKE: u64 = 10_000;
pub(super) const MAX_HEAP: u64 = 10_000;

/// One input: the set S and the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Instance {
    pub moves: Vec<u64>,
    pub positions: Vec<Vec<u64>>,
}

/// What a reader of the input does with a take that appears twice in S.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Repeats {
    /// An error (the validator, the checker): the statement says the takes are distinct.
    Refused,
    /// The same move again, which changes nothing (the solver and the brute force).
    Allowed,
}

/// Streams the input; what it keeps is bounded by the limits (100 positions of 100 heaps).
pub fn validate(input: &mut dyn BufRead, _limits: Constraints) -> Result<(), InputError> {
    read(&mut Scanner::from_reader(input), Repeats::Refused).map(|_| ())
}

/// The input, if it meets the format and limits; else the first violation.
pub(super) fn parse(input: &[u8], repeats: Repeats) -> Result<Instance, InputError> {
    read(&mut Scanner::new(input), repeats)
}

fn read<S: Source>(scanner: &mut Scanner<S>, repeats: Repeats) -> Result<Instance, InputError> {
    let k = scanner.usize_in("k", 1..=MAX_COUNT)?;
    let moves = match repeats {
        Repeats::Refused => read_distinct_takes(scanner, k, MAX_TAKE)?,
        Repeats::Allowed => read_takes(scanner, k, MAX_TAKE)?,
    };
    let m = scanner.usize_in("m", 1..=MAX_COUNT)?;
    let mut positions = Vec::with_capacity(m);
    for _ in 0..m {
        let l = scanner.usize_in("l", 1..=MAX_COUNT)?;
        let heaps = (0..l)
            .map(|_| scanner.u64_in("heap size", 0..=MAX_HEAP))
            .collect::<Result<Vec<u64>, _>>()?;
        positions.push(heaps);
    }
    scanner.expect_end()?;
    Ok(Instance { moves, positions })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Constraints::{Extended, Original};

    fn validate(input: &[u8], limits: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, limits)
    }

    #[test]
    fn accepts_the_sample_and_free_whitespace() {
        let sample = b"2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n";
        assert_eq!(validate(sample, Original), Ok(()));
        assert_eq!(validate(b"1 1 1 1 0", Extended), Ok(()));
        let instance = parse(sample, Repeats::Refused).unwrap();
        assert_eq!(instance.moves, [2, 5]);
        assert_eq!(instance.positions[2], [2, 3, 7, 12]);
        assert_eq!(
            parse(b"2 3 3\n1\n1 4\n", Repeats::Allowed).unwrap().moves,
            [3, 3]
        );
    }

    #[test]
    fn rejects_each_rule_with_line_column_and_message() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "line 1, column 1: expected k (a non-negative integer), found end of input"),
            (b"0\n", "line 1, column 1: k 0 is below the minimum 1"),
            (b"101 1\n", "line 1, column 1: k 101 is above the limit 100"),
            (b"2 0 5\n", "line 1, column 3: take 0 is below the minimum 1"),
            (b"2 5 10001\n", "line 1, column 5: take 10001 is above the limit 10000"),
            (b"3 2 5 2\n1\n1 1\n", "line 1, column 7: take 2 appears twice in S (first at line 1, column 3); the takes must be distinct"),
            (b"1 1\n0\n", "line 2, column 1: m 0 is below the minimum 1"),
            (b"1 1\n101\n", "line 2, column 1: m 101 is above the limit 100"),
            (b"1 1\n1\n0\n", "line 3, column 1: l 0 is below the minimum 1"),
            (b"1 1\n1\n2 3 10001\n", "line 3, column 5: heap size 10001 is above the limit 10000"),
            (b"1 1\n2\n1 5\n2 5", "line 4, column 4: expected heap size (a non-negative integer), found end of input"),
            (b"1 1\n1\n1 x\n", "line 3, column 3: expected heap size (a non-negative integer), found `x`"),
            (b"1 1\n1\n1 1\n0\n", "line 4, column 1: unexpected `0` after the end of the input"),
        ];
        crate::test_support::assert_rejections(super::validate, &[Original, Extended], cases);
    }
}
