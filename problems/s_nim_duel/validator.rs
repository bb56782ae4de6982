//! The exact format and limits of s-nim-duel (see `statement.md`): `k` and S (distinct), `l` and
//! the heaps, then optionally the seed of the judge's random moves. The extended limits are the
//! original ones.

use crate::support::{read_distinct_takes, read_takes};
use crate::{Constraints, InputError, Scanner, Source};
use std::io::BufRead;

pub(super) const MAX_TAKES: usize = 10;
pub(super) const MAX_TAKE: u64 = 100;
pub(super) const MAX_HEAPS: usize = 10;
pub(super) const MAX_HEAP: u64 = 1000;

/// One case: the game, and the seed of the judge's random moves if the input gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Instance {
    pub moves: Vec<u64>,
    pub heaps: Vec<u64>,
    pub seed: Option<u64>,
}

/// Reads the whole input: S distinct (validator, judge), or repeats allowed (solver, brute force).
pub(super) fn parse(input: &[u8], distinct: bool) -> Result<Instance, InputError> {
    read(&mut Scanner::new(input), distinct)
}

/// Streams the input; it is bounded by the limits anyway (a seed and 21 numbers).
pub fn validate(input: &mut dyn BufRead, _limits: Constraints) -> Result<(), InputError> {
    read(&mut Scanner::from_reader(input), true).map(|_| ())
}

fn read<S: Source>(scanner: &mut Scanner<S>, distinct: bool) -> Result<Instance, InputError> {
    let k = scanner.usize_in("k", 1..=MAX_TAKES)?;
    let moves = if distinct {
        read_distinct_takes(scanner, k, MAX_TAKE)?
    } else {
        read_takes(scanner, k, MAX_TAKE)?
    };
    let l = scanner.usize_in("l", 1..=MAX_HEAPS)?;
    let heaps = (0..l)
        .map(|_| scanner.u64_in("heap size", 0..=MAX_HEAP))
        .collect::<Result<Vec<u64>, _>>()?;
    let seed = if scanner.at_end() {
        None
    } else {
        Some(scanner.u64("seed")?)
    };
    scanner.expect_end()?;
    Ok(Instance { moves, heaps, seed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Constraints::{Extended, Original};

    fn validate(input: &[u8], limits: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, limits)
    }

    #[test]
    fn accepts_the_format_with_and_without_a_seed() {
        for input in [
            "2 2 5\n3 2 4 7\n",
            "2 5 2\n3 2 4 7\n18446744073709551615\n",
            "1 1 1 0",
        ] {
            assert_eq!(validate(input.as_bytes(), Original), Ok(()), "{input}");
        }
        let instance = parse(b"2 2 5\n2 4 7\n9\n", true).unwrap();
        assert_eq!((instance.heaps, instance.seed), (vec![4, 7], Some(9)));
        assert_eq!(parse(b"2 2 5\n2 4 7", true).unwrap().seed, None);
        assert_eq!(parse(b"2 3 3\n1 1\n", false).unwrap().moves, [3, 3]);
    }

    #[test]
    fn rejects_each_rule_with_line_column_and_message() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "line 1, column 1: expected k (a non-negative integer), found end of input"),
            (b"11 1\n", "line 1, column 1: k 11 is above the limit 10"),
            (b"2 0 5\n", "line 1, column 3: take 0 is below the minimum 1"),
            (b"2 5 101\n", "line 1, column 5: take 101 is above the limit 100"),
            (b"2 5 5\n1 1\n", "line 1, column 5: take 5 appears twice in S (first at line 1, column 3); the takes must be distinct"),
            (b"1 1\n0\n", "line 2, column 1: l 0 is below the minimum 1"),
            (b"1 1\n11 1\n", "line 2, column 1: l 11 is above the limit 10"),
            (b"1 1\n2 3 1001\n", "line 2, column 5: heap size 1001 is above the limit 1000"),
            (b"1 1\n2 3", "line 2, column 4: expected heap size (a non-negative integer), found end of input"),
            (b"1 1\n1 3\n-4\n", "line 3, column 1: expected seed (a non-negative integer), found `-4`"),
            (b"1 1\n1 3\n18446744073709551616\n", "line 3, column 1: seed `18446744073709551616` is too large"),
            (b"1 1\n1 3\n4 5\n", "line 3, column 3: unexpected `5` after the end of the input"),
        ];
        crate::test_support::assert_rejections(super::validate, &[Original, Extended], cases);
    }
}
