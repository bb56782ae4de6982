//! Smaller inputs from a failing one: fewer lines first (halves, then quarters, ... down to single
//! lines), then every `n` halved at once, then single values set to 1, halved or decremented
//! ([`crate::support`]'s steps, as every shrinker uses).
//!
//! Every candidate has fewer numbers, or the same numbers with one or more of them smaller, so the
//! sum of the count and the values strictly drops and greedy shrinking ends. Candidates never go
//! below one line nor below `n = 1`, so each is valid under whatever limits the input met.

use super::generator::render;
use super::validator::{for_each_n, EXTENDED_MAX_N};
use crate::support::{cuts, smaller_values, without, CANDIDATES_PER_KIND};
use std::ops::Range;

/// All candidates together stay near this many bytes, however large the input.
const CANDIDATE_BYTES: usize = 64 << 20;

/// One way to make the input smaller.
enum Edit {
    Drop(Range<usize>),
    HalveAll,
    Set(usize, u64),
}

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let mut cards = Vec::new();
    if for_each_n(input, EXTENDED_MAX_N, |n, _| cards.push(n)).is_err() {
        return Vec::new();
    }
    let budget = (CANDIDATE_BYTES / input.len().max(1)).clamp(4, 512);
    let mut candidates: Vec<Vec<u8>> = Vec::new();
    for edit in edits(&cards).into_iter().take(budget) {
        let candidate = render(&apply(&cards, &edit));
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    candidates
}

fn edits(cards: &[u64]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = cuts(cards.len(), 1).into_iter().map(Edit::Drop).collect();
    if cards.iter().any(|&n| n > 1) {
        edits.push(Edit::HalveAll);
    }
    let shrinkable = cards.iter().enumerate().filter(|&(_, &n)| n > 1);
    for (i, &n) in shrinkable.take(CANDIDATES_PER_KIND) {
        edits.extend(smaller_values(n, 1).into_iter().map(|v| Edit::Set(i, v)));
    }
    edits
}

fn apply(cards: &[u64], edit: &Edit) -> Vec<u64> {
    match edit {
        Edit::Drop(range) => without(cards, range),
        Edit::HalveAll => cards.iter().map(|&n| (n / 2).max(1)).collect(),
        Edit::Set(i, value) => {
            let mut cards = cards.to_vec();
            cards[*i] = *value;
            cards
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::generator::generate;
    use super::super::validator::validate;
    use super::*;
    use crate::Constraints;

    fn numbers(input: &[u8]) -> Vec<u64> {
        let mut cards = Vec::new();
        for_each_n(input, u64::MAX, |n, _| cards.push(n)).unwrap();
        cards
    }

    /// Fewer numbers, or as many and none larger with one smaller.
    fn strictly_smaller(candidate: &[u64], original: &[u64]) -> bool {
        candidate.len() < original.len()
            || (candidate.len() == original.len()
                && candidate.iter().zip(original).all(|(c, o)| c <= o)
                && candidate != original)
    }

    #[test]
    fn candidates_are_valid_and_strictly_smaller() {
        for seed in 0..40 {
            let input = generate(seed, 1000);
            let original = numbers(&input);
            for candidate in shrink(&input) {
                crate::test_support::validate_bytes(validate, &candidate, Constraints::Original)
                    .unwrap();
                assert!(
                    strictly_smaller(&numbers(&candidate), &original),
                    "seed {seed}"
                );
            }
        }
    }

    #[test]
    fn most_aggressive_first_and_single_lines_reachable() {
        let candidates = shrink(b"5\n8\n9\n");
        assert_eq!(candidates[0], b"9\n");
        assert!(candidates.contains(&b"5\n9\n".to_vec()));
        assert!(candidates.contains(&b"2\n4\n4\n".to_vec()));
        assert!(candidates.contains(&b"5\n8\n8\n".to_vec()));
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failing_input() {
        // Pretend the bug shows on any input holding an n of 100 or more.
        let fails = |input: &[u8]| numbers(input).iter().any(|&n| n >= 100);
        let mut input = b"7\n600\n31\n999\n4\n".to_vec();
        while let Some(smaller) = shrink(&input).into_iter().find(|c| fails(c)) {
            input = smaller;
        }
        assert_eq!(input, b"100\n");
    }

    #[test]
    fn nothing_smaller_than_a_single_one() {
        assert!(shrink(b"1\n").is_empty());
        assert!(shrink(b"not a number").is_empty());
        assert_eq!(shrink(b"1 1"), [b"1\n".to_vec()]);
    }

    #[test]
    fn huge_inputs_get_few_candidates() {
        let input = render(&vec![1000; 2_000_000]);
        let candidates = shrink(&input);
        assert!(!candidates.is_empty() && candidates.len() <= 16);
        assert_eq!(numbers(&candidates[0]).len(), 1_000_000);
    }
}
