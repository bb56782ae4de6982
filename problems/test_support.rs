//! Helpers the problems' tests share: a stream that trickles its bytes, inputs run through a
//! validator streamed that way and whole, a solver's output as text, the fixtures of a problem,
//! and an independent oracle of wins. Built only for tests.

use std::io::BufRead;

use crate::InputError;

/// 100 distinct pseudo-random takes from 1..=10000 whose Grundy values show no period within
/// [`crate::support::PERIOD_SEARCH_LIMIT`] values (nor within 2^22): a set the extended limits
/// exclude for heaps above [`crate::support::DIRECT_TABLE_LIMIT`]. For tests of that rule,
/// which check it is still refused.
pub fn takes_without_a_period_in_reach() -> Vec<u64> {
    let mut state = 1u64;
    let mut takes = Vec::new();
    while takes.len() < 100 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let take = 1 + state % 10_000;
        if !takes.contains(&take) {
            takes.push(take);
        }
    }
    takes
}

/// Runs `validate` on `input` as a stream that hands out a few bytes at a time (so every token
/// straddles window ends somewhere) and as one block, checks both say the same, and returns it.
/// The validators' tests go through it.
pub fn validate_bytes(
    validate: crate::ValidateFn,
    input: &[u8],
    limits: crate::Constraints,
) -> Result<(), InputError> {
    let whole = validate(&mut &input[..], limits);
    let trickled = validate(&mut Trickle::new(input), limits);
    assert_eq!(whole, trickled, "{:?}", String::from_utf8_lossy(input));
    whole
}

/// Every `.in` below a problem's fixtures folder `root`, outside `invalid/` groups, sorted.
pub fn fixture_inputs(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.ends_with("invalid") {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "in") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Checks that `validate` rejects each input of `cases` with exactly its message (line and column
/// included) under every one of `limits`, streamed and whole ([`validate_bytes`]).
pub fn assert_rejections(
    validate: crate::ValidateFn,
    limits: &[crate::Constraints],
    cases: &[(&[u8], &str)],
) {
    for &(input, expected) in cases {
        for &limits in limits {
            let error = validate_bytes(validate, input, limits).unwrap_err();
            let shown = String::from_utf8_lossy(input);
            assert_eq!(error.to_string(), expected, "{shown:?} ({limits:?})");
        }
    }
}

/// A solver's (or brute force's) whole output for `input`, as text.
pub fn run_to_string(solve: crate::SolveFn, input: &str) -> Result<String, InputError> {
    let mut out = Vec::new();
    solve(input.as_bytes(), &mut out)?;
    Ok(String::from_utf8(out).expect("solvers print text"))
}

/// Win (`true`) or loss, for the player to move, of every position of three heaps up to `top`
/// of the subtraction game S = `moves`, by searching the game tree: a position wins when some
/// legal take leaves a lost one. No Grundy values: the tests' independent oracle.
pub fn wins_by_search(moves: &[u64], top: usize) -> Vec<Vec<Vec<bool>>> {
    let mut wins = vec![vec![vec![false; top + 1]; top + 1]; top + 1];
    // Every move lowers the total, so positions are settled in increasing total.
    for total in 0..=3 * top {
        for a in 0..=top.min(total) {
            for b in 0..=top.min(total - a) {
                let c = total - a - b;
                if c > top {
                    continue;
                }
                wins[a][b][c] = moves.iter().map(|&s| s as usize).any(|s| {
                    (s <= a && !wins[a - s][b][c])
                        || (s <= b && !wins[a][b - s][c])
                        || (s <= c && !wins[a][b][c - s])
                });
            }
        }
    }
    wins
}

/// A stream for tests that hands out 1, 2, ... 7 bytes per read, in turn, so that tokens straddle
/// the ends of a [`Reader`](crate::Reader)'s reads everywhere.
pub struct Trickle<'a> {
    rest: &'a [u8],
    reads: usize,
}

impl<'a> Trickle<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Trickle {
            rest: bytes,
            reads: 0,
        }
    }

    fn now(&self) -> usize {
        self.rest.len().min(1 + self.reads % 7)
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::Read::read(&mut &self.rest[..self.now()], buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Trickle<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Ok(&self.rest[..self.now()])
    }

    fn consume(&mut self, amount: usize) {
        self.rest = &self.rest[amount..];
        self.reads += 1;
    }
}
