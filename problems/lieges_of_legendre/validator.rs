//! The input format of lieges-of-legendre: `n k`, then exactly `n` pile sizes, separated by any
//! whitespace (the original judge puts `n k` on the first line and the piles on the second). The
//! solver, the brute force and the shrinker read through [`Piles`] too, so they accept and reject
//! exactly what the validator does, with the same messages.

use crate::{Constraints, InMemory, InputError, Scanner, Source};
use std::io::BufRead;

/// The bounds on `n`, `k` and the pile sizes (all at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_piles: u64,
    pub max_k: u64,
    pub max_pile: u64,
}

/// Codeforces 603C as stated.
pub const ORIGINAL: Limits = Limits {
    max_piles: 100_000,
    max_k: 1_000_000_000,
    max_pile: 1_000_000_000,
};

/// What the solver also handles: it streams the piles, reads only the parity of `k` and spends
/// `O(log a)` per pile, so the bounds are only about input size and 64-bit arithmetic.
pub const EXTENDED: Limits = Limits {
    max_piles: 1_000_000,
    max_k: 1_000_000_000_000_000_000,
    max_pile: 1_000_000_000_000_000_000,
};

pub fn limits(constraints: Constraints) -> Limits {
    match constraints {
        Constraints::Original => ORIGINAL,
        Constraints::Extended => EXTENDED,
    }
}

/// A reader positioned after `n k`, handing out the pile sizes one at a time.
pub struct Piles<S> {
    scanner: Scanner<S>,
    count: u64,
    read: u64,
    max_pile: u64,
    /// How many piles a split makes.
    pub k: u64,
}

/// Reads `n` and `k` from the whole input.
pub fn read_header(input: &[u8], limits: Limits) -> Result<Piles<InMemory<'_>>, InputError> {
    read_header_from(Scanner::new(input), limits)
}

fn read_header_from<S: Source>(
    mut scanner: Scanner<S>,
    limits: Limits,
) -> Result<Piles<S>, InputError> {
    let count = scanner.u64_in("pile count n", 1..=limits.max_piles)?;
    let k = scanner.u64_in("k", 1..=limits.max_k)?;
    Ok(Piles {
        scanner,
        count,
        read: 0,
        max_pile: limits.max_pile,
        k,
    })
}

impl<S: Source> Piles<S> {
    /// The next pile size and the byte offset where it starts; `None` after the `n`-th, once the
    /// rest of the input is checked to be whitespace.
    pub fn next_pile(&mut self) -> Result<Option<(u64, usize)>, InputError> {
        let offset = self.scanner.next_token_offset();
        let at_end = self.scanner.at_end();
        if self.read == self.count {
            if at_end {
                return Ok(None);
            }
            let message = format!(
                "unexpected `{}` after the last of the n = {} pile sizes",
                self.scanner.token_text(),
                self.count
            );
            return Err(self.scanner.error_at(offset, message));
        }
        if at_end {
            return Err(self.scanner.error_at(
                offset,
                format!(
                    "the input ends after {} of the n = {} pile sizes",
                    self.read, self.count
                ),
            ));
        }
        let size = self.scanner.u64_in("pile size", 1..=self.max_pile)?;
        self.read += 1;
        Ok(Some((size, offset)))
    }
}

/// Streams the piles: nothing is kept but the counts.
pub fn validate(input: &mut dyn BufRead, constraints: Constraints) -> Result<(), InputError> {
    let mut piles = read_header_from(Scanner::from_reader(input), limits(constraints))?;
    while piles.next_pile()?.is_some() {}
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(input: &[u8], constraints: Constraints) -> Result<(), InputError> {
        crate::test_support::validate_bytes(super::validate, input, constraints)
    }

    fn error(input: &str, constraints: Constraints) -> String {
        validate(input.as_bytes(), constraints)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn accepts_the_samples_and_any_whitespace() {
        for input in [
            "2 1\n3 4\n",
            "1 2\n3\n",
            "1\t2 3",
            "3 1000000000\r\n1 1000000000 2\r\n",
        ] {
            assert_eq!(validate(input.as_bytes(), Constraints::Original), Ok(()));
        }
        let big = "1 1000000000000000000\n1000000000000000000\n";
        assert_eq!(validate(big.as_bytes(), Constraints::Extended), Ok(()));
    }

    #[test]
    fn reports_the_first_violation_with_its_position() {
        let original = Constraints::Original;
        assert_eq!(
            error("3 2\n1 2 1000000001\n", original),
            "line 2, column 5: pile size 1000000001 is above the limit 1000000000"
        );
        assert_eq!(
            error("3 2\n0 2 1000000001\n", original),
            "line 2, column 1: pile size 0 is below the minimum 1"
        );
        assert_eq!(
            error("100001 2\n", original),
            "line 1, column 1: pile count n 100001 is above the limit 100000"
        );
        assert_eq!(
            error("1 0\n5\n", original),
            "line 1, column 3: k 0 is below the minimum 1"
        );
        assert_eq!(
            error("1 1000000001\n5\n", original),
            "line 1, column 3: k 1000000001 is above the limit 1000000000"
        );
        assert_eq!(
            error("2 1\n3 x4\n", original),
            "line 2, column 3: expected pile size (a non-negative integer), found `x4`"
        );
        assert_eq!(
            error("1 1000000000000000001\n1\n", Constraints::Extended),
            "line 1, column 3: k 1000000000000000001 is above the limit 1000000000000000000"
        );
        assert_eq!(
            error("1000001 1\n", Constraints::Extended),
            "line 1, column 1: pile count n 1000001 is above the limit 1000000"
        );
    }

    #[test]
    fn the_pile_count_must_match_n() {
        let original = Constraints::Original;
        assert_eq!(
            error("3 1\n4 5\n", original),
            "line 3, column 1: the input ends after 2 of the n = 3 pile sizes"
        );
        assert_eq!(
            error("2 1\n4 5 6\n", original),
            "line 2, column 5: unexpected `6` after the last of the n = 2 pile sizes"
        );
        assert_eq!(
            error("1 1\n4\n\n junk\n", original),
            "line 4, column 2: unexpected `junk` after the last of the n = 1 pile sizes"
        );
        assert!(error("", original).contains("expected pile count n"));
        assert!(error("2", original).contains("expected k"));
    }

    #[test]
    fn the_reader_hands_out_piles_with_offsets() {
        let mut piles = read_header(b"2 7\n 10 3", ORIGINAL).unwrap();
        assert_eq!((piles.count, piles.k), (2, 7));
        assert_eq!(piles.next_pile(), Ok(Some((10, 5))));
        assert_eq!(piles.next_pile(), Ok(Some((3, 8))));
        assert_eq!(piles.next_pile(), Ok(None));
    }
}
