//! Seeded inputs for lieges-of-legendre, always valid under the original limits.
//!
//! `k` is odd or even with equal odds (even needs scale >= 2), and is often the smallest or the
//! largest of its parity. Pile shapes: uniform sizes; small sizes only (where the tables start);
//! odd numbers times powers of two (long halving chains, where the odd-`k` rule recurses); edge
//! sizes; and mirrored pairs, whose values cancel so that Nicky wins.

use super::validator::ORIGINAL;
use crate::support::{rng, Random};
use rand::RngExt;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let scale = scale.max(1);
    let top = scale.min(ORIGINAL.max_pile);
    let count = pick_count(&mut rng, scale.min(ORIGINAL.max_piles));
    let k = pick_k(&mut rng, scale.min(ORIGINAL.max_k));
    let mut piles: Vec<u64> = match rng.random_range(0..5u32) {
        0 => (0..count).map(|_| rng.random_range(1..=top)).collect(),
        1 => (0..count)
            .map(|_| rng.random_range(1..=top.min(12)))
            .collect(),
        2 => (0..count).map(|_| halving_chain(&mut rng, top)).collect(),
        3 => {
            let edges = edge_sizes(top);
            (0..count)
                .map(|_| edges[index(&mut rng, edges.len())])
                .collect()
        }
        _ => {
            let half: Vec<u64> = (0..count / 2).map(|_| rng.random_range(1..=top)).collect();
            let extra = (count % 2 == 1).then(|| rng.random_range(1..=top));
            half.iter().chain(&half).copied().chain(extra).collect()
        }
    };
    shuffle(&mut rng, &mut piles);
    render(k, &piles)
}

/// `n k` on the first line and the piles on the second, as the original judge gives them.
pub fn render(k: u64, piles: &[u64]) -> Vec<u8> {
    let mut out = format!("{} {k}\n", piles.len()).into_bytes();
    for (i, size) in piles.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(size.to_string().as_bytes());
    }
    out.push(b'\n');
    out
}

fn pick_count(rng: &mut Random, most: u64) -> u64 {
    match rng.random_range(0..8u32) {
        0 => 1,
        1 => most,
        2 => rng.random_range(1..=most.min(4)),
        _ => rng.random_range(1..=most),
    }
}

/// Odd or even with equal odds, then the smallest, the largest or a uniform value of that parity.
fn pick_k(rng: &mut Random, most: u64) -> u64 {
    let smallest = if most >= 2 && rng.random_bool(0.5) {
        2
    } else {
        1
    };
    let largest = most - (most - smallest) % 2;
    match rng.random_range(0..4u32) {
        0 => smallest,
        1 => largest,
        _ => {
            let k = rng.random_range(smallest..=largest);
            k - (k - smallest) % 2
        }
    }
}

/// An odd number times a power of two, at most `top`.
fn halving_chain(rng: &mut Random, top: u64) -> u64 {
    let shift = rng.random_range(0..=top.ilog2());
    let odd = rng.random_range(1..=(top >> shift).min(15));
    (odd - (1 - odd % 2)) << shift
}

/// Sizes where a wrong table tends to show: the first few, powers of two and the top.
fn edge_sizes(top: u64) -> Vec<u64> {
    let mut sizes: Vec<u64> = (1..=8)
        .chain([
            top,
            top - 1,
            top / 2,
            1 << top.ilog2(),
            3 << top.ilog2().saturating_sub(2),
        ])
        .filter(|&size| (1..=top).contains(&size))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

fn index(rng: &mut Random, len: usize) -> usize {
    rng.random_range(0..len as u64) as usize
}

/// Fisher-Yates with 64-bit draws, so the result is the same on every platform.
fn shuffle(rng: &mut Random, items: &mut [u64]) {
    for i in (1..items.len()).rev() {
        items.swap(i, index(rng, i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::super::validator::{read_header, validate, EXTENDED};
    use super::*;
    use crate::Constraints;

    fn parse(input: &[u8]) -> (u64, Vec<u64>) {
        let mut reader = read_header(input, EXTENDED).unwrap();
        let mut piles = Vec::new();
        while let Some((size, _)) = reader.next_pile().unwrap() {
            piles.push(size);
        }
        (reader.k, piles)
    }

    #[test]
    fn valid_under_the_original_limits_and_within_scale() {
        for scale in [0, 1, 2, 3, 6, 100, 100_000, 2_000_000_000] {
            for seed in 0..40 {
                let input = generate(seed, scale);
                crate::test_support::validate_bytes(validate, &input, Constraints::Original)
                    .unwrap_or_else(|e| panic!("seed {seed}, scale {scale}: {e}"));
                let (k, piles) = parse(&input);
                let bound = scale.max(1);
                assert!(k <= bound && piles.len() as u64 <= bound, "seed {seed}");
                assert!(piles.iter().all(|&size| size <= bound), "seed {seed}");
            }
        }
    }

    #[test]
    fn scale_one_is_the_smallest_game() {
        assert_eq!(generate(9, 1), b"1 1\n1\n");
    }

    #[test]
    fn same_seed_same_input() {
        assert_eq!(generate(7, 1_000_000), generate(7, 1_000_000));
        assert_ne!(generate(7, 1_000_000), generate(8, 1_000_000));
    }

    #[test]
    fn shapes_cover_both_parities_edges_and_both_winners() {
        let games: Vec<(u64, Vec<u64>)> =
            (0..200).map(|seed| parse(&generate(seed, 1000))).collect();
        for k in [1, 2, 999, 1000] {
            assert!(games.iter().any(|g| g.0 == k), "k = {k} never drawn");
        }
        assert!(games.iter().any(|g| g.0 % 2 == 1 && g.0 > 1));
        assert!(games.iter().any(|g| g.0.is_multiple_of(2) && g.0 > 2));
        assert!(games.iter().any(|g| g.1.len() == 1000));
        assert!(games
            .iter()
            .any(|g| g.1.contains(&1000) && g.1.contains(&512)));
        let results: Vec<u8> = games
            .iter()
            .map(|(k, piles)| {
                piles
                    .iter()
                    .fold(0, |acc, &p| acc ^ super::super::solver::grundy(p, *k))
            })
            .collect();
        assert!(results.contains(&0) && results.iter().any(|&g| g != 0));
    }
}
