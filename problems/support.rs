//! Helpers the Nim-family problems share: Grundy values of a subtraction game under the extended
//! limits (a direct table, or the period when heaps are huge), seeded randomness for generators,
//! and the shrinking steps for lists and numbers.
//!
//! Not for solver-specific parsing: every problem reads its own format.

use crate::sg::{self, Periodic};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::Range;

/// Heaps up to this size are answered from a direct table of g(0..=largest heap).
pub const DIRECT_TABLE_LIMIT: u64 = 1 << 20;

/// How many g-values the period search may compute for larger heaps. The extended limits of
/// set-nim and s-nim allow a heap above [`DIRECT_TABLE_LIMIT`] only when the period is found within
/// this many values; solver and validator both decide it through [`SubtractionValues::for_heaps`].
pub const PERIOD_SEARCH_LIMIT: usize = 1 << 20;

/// The Grundy values of one subtraction game, for every heap up to some largest heap.
pub enum SubtractionValues {
    /// g(0..=largest heap).
    Table(Vec<u32>),
    /// The whole sequence, from its period.
    Periodic(Periodic),
}

impl SubtractionValues {
    /// Values for heaps up to `largest_heap`, or `None` when the heap is above
    /// [`DIRECT_TABLE_LIMIT`] and the period is not found within [`PERIOD_SEARCH_LIMIT`] values.
    pub fn for_heaps(moves: &[u64], largest_heap: u64) -> Option<Self> {
        if largest_heap <= DIRECT_TABLE_LIMIT {
            let table = sg::subtraction_table(moves, largest_heap as usize);
            return Some(SubtractionValues::Table(table));
        }
        sg::subtraction_period(moves, PERIOD_SEARCH_LIMIT).map(SubtractionValues::Periodic)
    }

    /// g(heap); `heap` must not exceed the largest heap these values were made for.
    pub fn at(&self, heap: u64) -> u32 {
        match self {
            SubtractionValues::Table(table) => table[heap as usize],
            SubtractionValues::Periodic(periodic) => periodic.at(heap),
        }
    }
}

/// The error text, shared by solvers and validators, for a heap the extended limits do not cover.
pub fn no_period_message(heap: u64) -> String {
    format!(
        "heap size {heap} is above {DIRECT_TABLE_LIMIT}, which the extended limits allow only when \
         the Grundy values of S repeat within the first {PERIOD_SEARCH_LIMIT} values \
         (preperiod + period + largest move), and they do not"
    )
}

/// The generator's random source: the same stream for the same seed on every machine.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The largest count or value a generator may use: `scale`, but at least `floor` (so scale 1, or
/// even 0, still gives a valid input) and at most the problem's `limit`.
pub fn cap(scale: u64, floor: u64, limit: u64) -> u64 {
    scale.clamp(floor, limit)
}

/// A uniform integer in `lo..=hi` (`hi` below `lo` counts as `lo`).
pub fn between(rng: &mut impl Rng, lo: u64, hi: u64) -> u64 {
    rng.random_range(lo..=hi.max(lo))
}

/// An integer in `lo..=hi` drawn so that boundary cases come up often: the ends, values next to
/// them, small numbers, powers of two and their neighbours, and uniform values.
pub fn shaped(rng: &mut impl Rng, lo: u64, hi: u64) -> u64 {
    let hi = hi.max(lo);
    match rng.random_range(0..8u32) {
        0 => lo,
        1 => hi,
        2 => between(rng, lo, lo.saturating_add(3).min(hi)),
        3 => between(rng, hi.saturating_sub(3).max(lo), hi),
        4 => between(rng, lo, lo.saturating_add(30).min(hi)),
        5 => {
            let bits = between(rng, 0, u64::from(hi.max(2).ilog2()));
            let power = 1u64 << bits.min(63);
            let near = power - 1 + between(rng, 0, 2);
            near.clamp(lo, hi)
        }
        _ => between(rng, lo, hi),
    }
}

/// `count` distinct integers from `lo..=hi`, in random order; `count` must not exceed the range.
pub fn distinct(rng: &mut impl Rng, count: usize, lo: u64, hi: u64) -> Vec<u64> {
    let width = hi - lo + 1;
    if width <= 4 * count as u64 {
        // Small range: a partial Fisher-Yates shuffle of all of it.
        let mut all: Vec<u64> = (lo..=hi).collect();
        for i in 0..count {
            let j = between(rng, i as u64, width - 1) as usize;
            all.swap(i, j);
        }
        all.truncate(count);
        return all;
    }
    let mut chosen = Vec::with_capacity(count);
    while chosen.len() < count {
        let value = between(rng, lo, hi);
        if !chosen.contains(&value) {
            chosen.push(value);
        }
    }
    chosen
}

/// How many candidates of one kind a shrinker offers; the stress tester calls the shrinker again
/// after every accepted step, so large inputs still shrink, coarse steps first.
pub const CANDIDATES_PER_KIND: usize = 64;

/// Ranges to cut from a list of `len` items so that at least `keep` remain: halves first, then
/// quarters, and so on down to single items; at most [`CANDIDATES_PER_KIND`] of them.
pub fn cuts(len: usize, keep: usize) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    if len <= keep {
        return ranges;
    }
    let mut size = len.div_ceil(2).max(1);
    loop {
        for start in (0..len).step_by(size) {
            let end = (start + size).min(len);
            if len - (end - start) >= keep {
                ranges.push(start..end);
            }
        }
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    ranges.truncate(CANDIDATES_PER_KIND);
    ranges
}

/// Adds the candidate `make` builds to `kind`, unless `kind` already holds
/// [`CANDIDATES_PER_KIND`]; the candidate is not even built then, so a huge input costs no more
/// than a small one.
pub fn push_capped<T>(kind: &mut Vec<T>, make: impl FnOnce() -> T) {
    if kind.len() < CANDIDATES_PER_KIND {
        kind.push(make());
    }
}

/// `items` without the elements in `cut`.
pub fn without<T: Clone>(items: &[T], cut: &Range<usize>) -> Vec<T> {
    let mut rest = items[..cut.start].to_vec();
    rest.extend_from_slice(&items[cut.end..]);
    rest
}

/// Smaller replacements for `value`, none below `min`, most aggressive first: `min`, half,
/// one less. Empty when `value <= min`.
pub fn smaller_values(value: u64, min: u64) -> Vec<u64> {
    let mut smaller: Vec<u64> = Vec::new();
    for candidate in [min, value / 2, value.saturating_sub(1)] {
        if candidate >= min && candidate < value && !smaller.contains(&candidate) {
            smaller.push(candidate);
        }
    }
    smaller
}

/// 100 distinct pseudo-random takes from 1..=10000 whose Grundy values show no period within
/// [`PERIOD_SEARCH_LIMIT`] values (nor within 2^22): a set the extended limits exclude for heaps
/// above [`DIRECT_TABLE_LIMIT`]. For tests of that rule, which check it is still refused.
#[cfg(test)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_keep_enough_and_go_from_coarse_to_fine() {
        assert_eq!(cuts(1, 1), Vec::<Range<usize>>::new());
        assert_eq!(cuts(1, 0), vec![0..1]);
        assert_eq!(cuts(3, 1), vec![0..2, 2..3, 0..1, 1..2, 2..3]);
        assert_eq!(cuts(4, 3), vec![0..1, 1..2, 2..3, 3..4]);
        assert!(cuts(10_000, 1).len() <= CANDIDATES_PER_KIND);
        assert_eq!(without(&[1, 2, 3, 4], &(1..3)), [1, 4]);
    }

    #[test]
    fn smaller_values_are_smaller_and_not_below_the_minimum() {
        assert_eq!(smaller_values(10, 1), [1, 5, 9]);
        assert_eq!(smaller_values(2, 1), [1]);
        assert_eq!(smaller_values(1, 1), Vec::<u64>::new());
        assert_eq!(smaller_values(3, 0), [0, 1, 2]);
        assert_eq!(smaller_values(u64::MAX, 0), [0, u64::MAX / 2, u64::MAX - 1]);
    }

    #[test]
    fn random_helpers_stay_in_range_and_repeat_per_seed() {
        let mut a = rng(7);
        for _ in 0..2000 {
            let lo = between(&mut a, 0, 50);
            let hi = lo + between(&mut a, 0, 1 << 40);
            let v = shaped(&mut a, lo, hi);
            assert!((lo..=hi).contains(&v));
            let mut picked = distinct(&mut a, 5, lo, lo + 6);
            picked.sort_unstable();
            picked.dedup();
            assert_eq!(picked.len(), 5);
        }
        assert_eq!(
            shaped(&mut rng(3), 0, u64::MAX),
            shaped(&mut rng(3), 0, u64::MAX)
        );
        assert_eq!(cap(0, 1, 100), 1);
        assert_eq!(cap(1 << 40, 1, 100), 100);
    }

    #[test]
    fn huge_heaps_use_the_period_and_hopeless_sets_are_refused() {
        let values = SubtractionValues::for_heaps(&[1, 3, 4], 1_000_000_000_000_000_000).unwrap();
        assert!(matches!(values, SubtractionValues::Periodic(_)));
        // 10^18 = 7 * 142857142857142857 + 1, and g(1) = 1 for {1, 3, 4}.
        assert_eq!(values.at(1_000_000_000_000_000_000), 1);
        let small = SubtractionValues::for_heaps(&[1, 3, 4], 8).unwrap();
        assert_eq!(
            (0..=8).map(|h| small.at(h)).collect::<Vec<_>>(),
            [0, 1, 0, 1, 2, 3, 2, 0, 1]
        );
        // A move as large as the whole search window leaves no room to see a repetition.
        let far = PERIOD_SEARCH_LIMIT as u64;
        assert!(SubtractionValues::for_heaps(&[1, far], DIRECT_TABLE_LIMIT + 1).is_none());
    }
}
