//! Seeded inputs for powers-of-two, always valid under the original limits.
//!
//! Shapes: uniform values, a run of consecutive `n` (every residue mod 3), edge values (1, 2, 3,
//! powers of two, the top of the range), and only multiples of 3 (every answer `Cici`). One input
//! in five separates its numbers by mixed whitespace (spaces, tabs, `\r\n`, blank lines), which
//! the format allows; the rest put one `n` per line, as the original judge does.

use super::validator::ORIGINAL_MAX_N;
use crate::support::{rng, Random};
use rand::RngExt;

/// The original judge states no limit on the number of lines; generated inputs stop here.
pub const MAX_LINES: u64 = 100_000;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let scale = scale.max(1);
    let top = scale.min(ORIGINAL_MAX_N);
    let lines = line_count(&mut rng, scale.min(MAX_LINES));
    let cards: Vec<u64> = match rng.random_range(0..4u32) {
        0 => (0..lines).map(|_| rng.random_range(1..=top)).collect(),
        1 => {
            let first = rng.random_range(1..=top);
            (0..lines).map(|i| 1 + (first - 1 + i) % top).collect()
        }
        2 => {
            let edges = edge_values(top);
            (0..lines)
                .map(|_| edges[rng.random_range(0..edges.len() as u64) as usize])
                .collect()
        }
        _ if top >= 3 => (0..lines)
            .map(|_| 3 * rng.random_range(1..=top / 3))
            .collect(),
        _ => vec![top; lines as usize],
    };
    if rng.random_range(0..5u32) == 0 {
        render_with_mixed_whitespace(&mut rng, &cards)
    } else {
        render(&cards)
    }
}

/// One `n` per line, as the original judge gives them.
pub fn render(cards: &[u64]) -> Vec<u8> {
    cards
        .iter()
        .flat_map(|n| format!("{n}\n").into_bytes())
        .collect()
}

fn render_with_mixed_whitespace(rng: &mut Random, cards: &[u64]) -> Vec<u8> {
    const SEPARATORS: [&str; 5] = [" ", "\t", "\n", "\r\n", "  \n\n"];
    let mut out = Vec::new();
    for n in cards {
        out.extend_from_slice(n.to_string().as_bytes());
        let separator = SEPARATORS[rng.random_range(0..SEPARATORS.len() as u64) as usize];
        out.extend_from_slice(separator.as_bytes());
    }
    out
}

/// Mostly a uniform count, sometimes the extremes.
fn line_count(rng: &mut Random, most: u64) -> u64 {
    match rng.random_range(0..8u32) {
        0 => 1,
        1 => most,
        _ => rng.random_range(1..=most),
    }
}

/// Values where a wrong pattern tends to show: the smallest, powers of two, the largest.
fn edge_values(top: u64) -> Vec<u64> {
    let mut edges: Vec<u64> = [1, 2, 3, 4, 5, 6, top, top - 1, top.saturating_sub(2)]
        .into_iter()
        .chain((0..10).map(|j| 1u64 << j))
        .filter(|&n| (1..=top).contains(&n))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges
}

#[cfg(test)]
mod tests {
    use super::super::validator::{for_each_n, validate};
    use super::*;
    use crate::Constraints;

    fn cards(input: &[u8]) -> Vec<u64> {
        let mut cards = Vec::new();
        for_each_n(input, u64::MAX, |n, _| cards.push(n)).unwrap();
        cards
    }

    #[test]
    fn valid_under_the_original_limits_and_within_scale() {
        for scale in [0, 1, 2, 3, 7, 100, 1000, 5000] {
            for seed in 0..60 {
                let input = generate(seed, scale);
                crate::test_support::validate_bytes(validate, &input, Constraints::Original)
                    .unwrap_or_else(|e| panic!("seed {seed}, scale {scale}: {e}"));
                let cards = cards(&input);
                let bound = scale.max(1);
                assert!(cards.len() as u64 <= bound, "seed {seed}, scale {scale}");
                assert!(
                    cards.iter().all(|&n| n <= bound),
                    "seed {seed}, scale {scale}"
                );
            }
        }
    }

    #[test]
    fn same_seed_same_input_and_seeds_differ() {
        assert_eq!(generate(42, 1000), generate(42, 1000));
        let distinct: std::collections::HashSet<Vec<u8>> =
            (0..20).map(|seed| generate(seed, 1000)).collect();
        assert!(distinct.len() >= 18);
    }

    #[test]
    fn both_answers_occur() {
        let all: Vec<u64> = (0..40)
            .flat_map(|seed| cards(&generate(seed, 1000)))
            .collect();
        assert!(all.iter().any(|n| n.is_multiple_of(3)));
        assert!(all.iter().any(|n| !n.is_multiple_of(3)));
        assert!(all.contains(&1000) && all.contains(&1));
    }

    #[test]
    fn scale_one_is_the_single_card() {
        assert_eq!(cards(&generate(5, 1)), [1]);
    }
}
