//! Smaller inputs from a failing one: fewer piles first (halves, then quarters, ... down to single
//! piles), then every pile halved at once, then smaller `k` of the same parity (the parity decides
//! the game, so changing it would lose the failure), then single piles set to 1, halved or
//! decremented ([`crate::support`]'s steps, as every shrinker uses).
//!
//! Every candidate lowers `n`, `k` or some pile and raises nothing, so `n + k + sum(a_i)` strictly
//! drops and greedy shrinking ends. Nothing goes below 1 and `k` stays at least 1 or 2, so each
//! candidate is valid under whatever limits the input met.

use super::generator::render;
use super::validator::{read_header, EXTENDED};
use crate::support::{cuts, smaller_values, without, CANDIDATES_PER_KIND};
use std::ops::Range;

/// All candidates together stay near this many bytes, however large the input.
const CANDIDATE_BYTES: usize = 64 << 20;

/// One way to make the input smaller.
enum Edit {
    Drop(Range<usize>),
    HalveAll,
    SetK(u64),
    SetPile(usize, u64),
}

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let Some((k, piles)) = parse(input) else {
        return Vec::new();
    };
    let budget = (CANDIDATE_BYTES / input.len().max(1)).clamp(4, 512);
    let mut candidates: Vec<Vec<u8>> = Vec::new();
    for edit in edits(k, &piles).into_iter().take(budget) {
        let candidate = apply(k, &piles, &edit);
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    candidates
}

fn parse(input: &[u8]) -> Option<(u64, Vec<u64>)> {
    let mut reader = read_header(input, EXTENDED).ok()?;
    let mut piles = Vec::new();
    while let Some((size, _)) = reader.next_pile().ok()? {
        piles.push(size);
    }
    Some((reader.k, piles))
}

fn edits(k: u64, piles: &[u64]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = cuts(piles.len(), 1).into_iter().map(Edit::Drop).collect();
    if piles.iter().any(|&size| size > 1) {
        edits.push(Edit::HalveAll);
    }
    edits.extend(smaller_k(k).into_iter().map(Edit::SetK));
    let shrinkable = piles.iter().enumerate().filter(|&(_, &size)| size > 1);
    for (i, &size) in shrinkable.take(CANDIDATES_PER_KIND) {
        edits.extend(
            smaller_values(size, 1)
                .into_iter()
                .map(|v| Edit::SetPile(i, v)),
        );
    }
    edits
}

/// Values below `k` of the same parity, smallest first: 1 or 2, about `k / 2`, and `k - 2`.
fn smaller_k(k: u64) -> Vec<u64> {
    let smallest = 2 - k % 2;
    let half = k / 2 + (k / 2 + k) % 2;
    let mut ks: Vec<u64> = [smallest, half, k.saturating_sub(2)]
        .into_iter()
        .filter(|&c| c >= smallest && c < k)
        .collect();
    ks.dedup();
    ks
}

fn apply(k: u64, piles: &[u64], edit: &Edit) -> Vec<u8> {
    match edit {
        Edit::Drop(range) => render(k, &without(piles, range)),
        Edit::HalveAll => {
            let halved: Vec<u64> = piles.iter().map(|&size| (size / 2).max(1)).collect();
            render(k, &halved)
        }
        Edit::SetK(smaller) => render(*smaller, piles),
        Edit::SetPile(i, size) => {
            let mut piles = piles.to_vec();
            piles[*i] = *size;
            render(k, &piles)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::generator::generate;
    use super::super::validator::validate;
    use super::*;
    use crate::Constraints;

    fn measure(input: &[u8]) -> u64 {
        let (k, piles) = parse(input).unwrap();
        piles.len() as u64 + k + piles.iter().sum::<u64>()
    }

    #[test]
    fn candidates_are_valid_strictly_smaller_and_keep_the_parity_of_k() {
        for seed in 0..60 {
            let input = generate(seed, 1000);
            let (k, piles) = parse(&input).unwrap();
            for candidate in shrink(&input) {
                crate::test_support::validate_bytes(validate, &candidate, Constraints::Original)
                    .unwrap();
                let (smaller_k, smaller_piles) = parse(&candidate).unwrap();
                assert_eq!(smaller_k % 2, k % 2, "seed {seed}");
                assert!(smaller_k <= k && smaller_piles.len() <= piles.len());
                assert!(measure(&candidate) < measure(&input), "seed {seed}");
            }
        }
    }

    #[test]
    fn smaller_k_keeps_the_parity() {
        assert_eq!(smaller_k(1), Vec::<u64>::new());
        assert_eq!(smaller_k(2), Vec::<u64>::new());
        assert_eq!(smaller_k(3), [1]);
        assert_eq!(smaller_k(4), [2]);
        assert_eq!(smaller_k(10), [2, 6, 8]);
        assert_eq!(smaller_k(11), [1, 5, 9]);
        assert_eq!(smaller_k(1_000_000_000), [2, 500_000_000, 999_999_998]);
    }

    #[test]
    fn most_aggressive_first() {
        let candidates = shrink(b"3 7\n4 6 9\n");
        assert_eq!(candidates[0], b"1 7\n9\n");
        assert!(candidates.contains(&b"3 7\n2 3 4\n".to_vec()));
        assert!(candidates.contains(&b"3 1\n4 6 9\n".to_vec()));
        assert!(candidates.contains(&b"3 5\n4 6 9\n".to_vec()));
        assert!(candidates.contains(&b"3 7\n4 6 8\n".to_vec()));
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failing_input() {
        // Pretend the bug needs an even k above 5 and a pile of at least 6.
        let fails = |input: &[u8]| {
            let (k, piles) = parse(input).unwrap();
            k.is_multiple_of(2) && k > 5 && piles.iter().any(|&size| size >= 6)
        };
        let mut input = b"4 1000000000\n3 77 1000000000 5\n".to_vec();
        while let Some(smaller) = shrink(&input).into_iter().find(|c| fails(c)) {
            input = smaller;
        }
        assert_eq!(input, b"1 6\n6\n");
    }

    #[test]
    fn nothing_smaller_than_the_smallest_games() {
        assert!(shrink(b"1 1\n1\n").is_empty());
        assert!(shrink(b"1 2\n1\n").is_empty());
        assert!(shrink(b"2 1\n1\n").is_empty());
    }
}
