//! Helpers the Nim-family problems share: Grundy values of a subtraction game under the extended
//! limits (a direct table, or the period when heaps are huge), seeded randomness for generators,
//! and the shrinking steps for lists and numbers.
//!
//! Parsing here is limited to what several formats share (a set S of takes); otherwise every
//! problem reads its own format.

use crate::sg::{self, Periodic};
use crate::{InputError, Place, Scanner, Source};
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

/// The brute forces' own route to the period of a subtraction game, for heaps beyond their table.
/// It shares nothing with [`sg::subtraction_period`] (no hashing, no doubling table code, no
/// `sg::subtraction_table`): the brute force builds `table` = g(0..table.len()) by its own explicit
/// mex, and this compares the table with itself shifted, plainly. So a fixture's expected output
/// for a huge heap is a second, independent computation of the period, not a copy of the solver's.
///
/// Returns the smallest `(preperiod, period)` that `table` proves, or `None` when the table is too
/// short to prove any. For a candidate period p, let s(p) be the smallest index from which
/// g(x + p) = g(x) holds for every x the table can compare. The candidate is accepted when the
/// two windows of `largest_move` = m values at s(p) and at s(p) + p both lie in the table (they
/// are equal by the choice of s(p)).
///
/// Why an accepted pair is right: every move is legal from heap x + m, so g(x + m) is a function of
/// the m values before it; two equal windows are therefore followed by equal values forever, and p
/// is a period of the whole sequence from s(p) on. The table disagrees at s(p) - 1, so s(p) is the
/// exact preperiod for p. Why the first accepted p is the minimal period p* (with its minimal
/// preperiod q*): an accepted p is a true period, hence a multiple of p* with the same minimal
/// preperiod q* = s(p); then q* + p* + m <= s(p) + p + m <= table length, so p* itself is accepted,
/// and candidates are tried in increasing order. A table of q* + p* + m values is enough.
///
/// Cost: each candidate scans back from the end of the table. Once the table reaches into the
/// periodic part, a candidate p < p* is rejected within p* comparisons (p* agreeing values there
/// would make p a period), so the search costs below (p*)^2 + table length comparisons; a table
/// too short to prove anything may cost up to its length per candidate. Slow but plain, as a
/// reference should be.
pub fn period_by_comparison(table: &[u32], largest_move: usize) -> Option<(usize, usize)> {
    let len = table.len();
    let last_candidate = len.checked_sub(largest_move)?;
    (1..=last_candidate).find_map(|period| {
        let start = agreeing_tail_start(table, period);
        (start + period + largest_move <= len).then_some((start, period))
    })
}

/// The smallest index s such that `table[x] == table[x + period]` for every x in
/// `s..table.len() - period` (the table length minus `period` when even the last pair differs).
pub fn agreeing_tail_start(table: &[u32], period: usize) -> usize {
    let mut start = table.len().saturating_sub(period);
    while start > 0 && table[start - 1] == table[start - 1 + period] {
        start -= 1;
    }
    start
}

/// The Grundy values a brute force uses for one subtraction game: its rules-only table up to the
/// largest heap, or, when that heap is beyond the table's reach, the table up to the reach
/// continued by [`period_by_comparison`].
pub struct RulesOnlyValues {
    /// g(0..table.len()), from the brute force's explicit mex.
    table: Vec<u32>,
    /// `(preperiod, period)`, proven by the table, for heaps past its end.
    period: Option<(usize, usize)>,
}

impl RulesOnlyValues {
    /// Values for heaps up to `largest_heap`. `rules_table(upto)` must give g(0..=upto) from the
    /// rules. Above `reach` the table is built in doubling lengths up to `reach` values until it
    /// proves a period; `None` when even g(0..=reach) proves none.
    pub fn for_heaps(
        rules_table: impl Fn(usize) -> Vec<u32>,
        moves: &[u64],
        largest_heap: u64,
        reach: usize,
    ) -> Option<Self> {
        if largest_heap <= reach as u64 {
            let table = rules_table(largest_heap as usize);
            return Some(RulesOnlyValues {
                table,
                period: None,
            });
        }
        let largest_move = moves.iter().copied().max().unwrap_or(0);
        let largest_move = usize::try_from(largest_move).ok().filter(|&m| m <= reach)?;
        let mut upto = reach.min(1 << 12);
        loop {
            let table = rules_table(upto);
            if let Some(period) = period_by_comparison(&table, largest_move) {
                return Some(RulesOnlyValues {
                    table,
                    period: Some(period),
                });
            }
            if upto == reach {
                return None;
            }
            upto = reach.min(upto.saturating_mul(2));
        }
    }

    /// g(heap); `heap` must not exceed the largest heap these values were made for.
    pub fn at(&self, heap: u64) -> u32 {
        match self.period {
            Some((preperiod, period)) if heap >= self.table.len() as u64 => {
                let (pre, period) = (preperiod as u64, period as u64);
                self.table[(pre + (heap - pre) % period) as usize]
            }
            _ => self.table[heap as usize],
        }
    }
}

/// The brute forces' table of a subtraction game, from the rules alone: g(0..=upto), each value
/// the mex of the values one legal take away (no mask trick, not [`sg::subtraction_table`]). A
/// repeated take only repeats an option.
pub fn grundy_by_mex(moves: &[u64], upto: usize) -> Vec<u32> {
    let mut table: Vec<u32> = Vec::with_capacity(upto + 1);
    for x in 0..=upto {
        let options = moves
            .iter()
            .filter(|&&s| s as usize <= x)
            .map(|&s| table[x - s as usize]);
        let value = sg::mex(options.collect::<Vec<u32>>());
        table.push(value);
    }
    table
}

/// The brute forces' error text for a heap beyond their table whose period the table cannot prove.
pub fn beyond_rules_only_reach(heap: u64, reach: usize) -> String {
    format!(
        "heap size {heap} is beyond the brute force: it tables g(0..={reach}) from the rules, and \
         that table shows no period of S (preperiod + period + largest take must fit in it)"
    )
}

/// Reads the `k` takes of a set S, each in `1..=max_take`, in input order. A repeated take is kept:
/// it is the same move again, so it changes no Grundy value, and the solvers accept it.
pub fn read_takes(
    scanner: &mut Scanner<impl Source>,
    k: usize,
    max_take: u64,
) -> Result<Vec<u64>, InputError> {
    (0..k)
        .map(|_| scanner.u64_in("take", 1..=max_take))
        .collect()
}

/// [`read_takes`] for formats whose S must be distinct (validators): a repeated take is the error,
/// at its second place, naming the first.
pub fn read_distinct_takes(
    scanner: &mut Scanner<impl Source>,
    k: usize,
    max_take: u64,
) -> Result<Vec<u64>, InputError> {
    let mut takes: Vec<u64> = Vec::with_capacity(k);
    let mut places: Vec<Place> = Vec::with_capacity(k);
    for _ in 0..k {
        let offset = scanner.next_token_offset();
        let take = scanner.u64_in("take", 1..=max_take)?;
        if let Some(first) = takes.iter().position(|&s| s == take) {
            let earlier = places[first];
            return Err(scanner.error_at(
                offset,
                format!(
                    "take {take} appears twice in S (first at line {}, column {}); the takes must \
                     be distinct",
                    earlier.line, earlier.column
                ),
            ));
        }
        takes.push(take);
        places.push(scanner.place(offset));
    }
    Ok(takes)
}

/// In a sum of subtraction games with values `table` (g(0..=largest heap)), a move
/// `(heap index, take)` to a position of XOR 0, or `None` when the XOR is already 0: the
/// constructive half of the XOR rule (proved in `s_nim_move`'s module doc). Cost O(l + |S|).
pub fn winning_move(table: &[u32], moves: &[u64], heaps: &[u64]) -> Option<(usize, u64)> {
    let value = |heap: u64| table[heap as usize];
    let xor = heaps.iter().fold(0, |acc, &h| acc ^ value(h));
    if xor == 0 {
        return None;
    }
    // Step 1 of the proof: a heap whose value has the highest bit of the XOR.
    let (index, heap) = heaps
        .iter()
        .copied()
        .enumerate()
        .find(|&(_, h)| value(h) ^ xor < value(h))
        .expect("the XOR's highest bit is set in an odd number of the values");
    // Step 2: the mex of the heap's options is above the target, so an option has the target.
    let target = value(heap) ^ xor;
    let take = moves
        .iter()
        .copied()
        .find(|&s| s <= heap && value(heap - s) == target)
        .expect("every value below the mex is an option's value");
    Some((index, take))
}

/// The whitespace-separated tokens of a line of a program's output, each with its 1-based
/// column; for checkers and judges.
pub fn tokens(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> + Clone {
    let mut rest = 0;
    std::iter::from_fn(move || {
        let start = rest + line[rest..].iter().position(|b| !b.is_ascii_whitespace())?;
        let len = line[start..]
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(line.len() - start);
        rest = start + len;
        Some((start + 1, &line[start..start + len]))
    })
}

/// A token of a program's output as a message shows it: at most 24 bytes, lossy UTF-8.
pub fn shown(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(&token[..token.len().min(24)]).into_owned();
    if token.len() > 24 {
        text + "…"
    } else {
        text
    }
}

/// The generators' random source.
pub type Random = ChaCha8Rng;

/// The generators' random source for `seed`: the same stream for the same seed on every machine.
pub fn rng(seed: u64) -> Random {
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

/// The largest take of a generated set S: one time in three each, a few above `least` (up to
/// `least + spread`), at most 60, or `top_take`; never above `top_take`. Small ranges make dense
/// sets with short periods, the full range sparse ones.
pub fn take_range(rng: &mut impl Rng, top_take: u64, least: u64, spread: u64) -> u64 {
    match rng.random_range(0..3u32) {
        0 => top_take.min(between(rng, least, least + spread)),
        1 => top_take.min(between(rng, least, 60)),
        _ => top_take,
    }
}

/// A set S of `k` distinct takes from `1..=top_take` (`k <= top_take`), in random order, its
/// range drawn by [`take_range`]; one time in three it holds the take 1 (every heap can move).
pub fn distinct_takes(rng: &mut impl Rng, k: u64, top_take: u64) -> Vec<u64> {
    let range = take_range(rng, top_take, k, 8);
    let mut takes = distinct(rng, k as usize, 1, range.max(k));
    if rng.random_ratio(1, 3) && !takes.contains(&1) {
        takes[0] = 1;
    }
    takes
}

/// `values` separated by single spaces, as inputs write a list.
pub fn join(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A count in `1..=max_count`, mostly small (at most 5: quick to check by hand and by brute
/// force), sometimes up to the cap.
pub fn mostly_small(rng: &mut impl Rng, max_count: u64) -> u64 {
    if rng.random_bool(0.7) {
        between(rng, 1, max_count.min(5))
    } else {
        between(rng, 1, max_count)
    }
}

/// A position of `mostly_small` heaps in `0..=heap_range`, boundary-heavy ([`shaped`]), one in five
/// a copy of an earlier heap; with probability one half its last heap is chosen, when one fits, to
/// make the XOR of the values in `table` (g(0..=heap_range)) 0, so losing positions come up as
/// often as winning ones.
pub fn random_position(
    rng: &mut impl Rng,
    max_count: u64,
    heap_range: u64,
    table: &[u32],
) -> Vec<u64> {
    let l = mostly_small(rng, max_count);
    let mut heaps: Vec<u64> = Vec::with_capacity(l as usize);
    for _ in 0..l {
        let heap = if !heaps.is_empty() && rng.random_ratio(1, 5) {
            heaps[between(rng, 0, heaps.len() as u64 - 1) as usize]
        } else {
            shaped(rng, 0, heap_range)
        };
        heaps.push(heap);
    }
    if rng.random_bool(0.5) {
        let (last, rest) = heaps.split_last_mut().unwrap();
        let wanted = rest.iter().fold(0, |acc, &h| acc ^ table[h as usize]);
        let fitting: Vec<u64> = (0..=heap_range)
            .filter(|&h| table[h as usize] == wanted)
            .collect();
        if !fitting.is_empty() {
            *last = fitting[between(rng, 0, fitting.len() as u64 - 1) as usize];
        }
    }
    heaps
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

#[cfg(test)]
#[path = "support_tests.rs"]
mod tests;
