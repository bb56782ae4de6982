//! Random Nim inputs: a few positions of a few heaps, with zeros, duplicates, huge and edge-sized
//! heaps, positions forced to XOR 0 (so both answers come up), blank lines and odd spacing.

use crate::support::{between, cap, rng, shaped};
use rand::RngExt;

const MAX_HEAP: u64 = 1_000_000_000_000_000_000;
/// Counts stay small so the brute force stays quick; values go as high as the scale allows.
const MAX_POSITIONS: u64 = 40;
const MAX_HEAPS_PER_POSITION: u64 = 12;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let max_heap = cap(scale, 0, MAX_HEAP);
    let max_count = cap(scale, 1, u64::MAX);
    // One input draws its heaps from a narrow or a wide range, so duplicates and cancellations
    // are common in some inputs and rare in others.
    let top = if rng.random_bool(0.5) {
        max_heap.min(between(&mut rng, 0, 10))
    } else {
        max_heap
    };
    let positions = between(&mut rng, 1, max_count.min(MAX_POSITIONS));
    let newline = if rng.random_ratio(1, 8) { "\r\n" } else { "\n" };
    let mut text = String::new();
    for _ in 0..positions {
        if rng.random_ratio(1, 10) {
            text += if rng.random_bool(0.5) { " \t" } else { "" };
            text += newline;
        }
        let count = between(&mut rng, 1, max_count.min(MAX_HEAPS_PER_POSITION));
        let mut heaps: Vec<u64> = (0..count).map(|_| shaped(&mut rng, 0, top)).collect();
        if count >= 2 && rng.random_bool(0.5) {
            let rest = heaps[..heaps.len() - 1].iter().fold(0, |acc, &h| acc ^ h);
            if rest <= top {
                *heaps.last_mut().unwrap() = rest;
            }
        }
        for (i, heap) in heaps.iter().enumerate() {
            if i > 0 {
                text += if rng.random_ratio(1, 6) { "\t " } else { " " };
            }
            text += &heap.to_string();
        }
        text += newline;
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::super::{brute, solver, validator};
    use super::*;
    use crate::Constraints::Original;

    const SCALES: [u64; 8] = [0, 1, 2, 3, 10, 1000, 1 << 40, u64::MAX];

    #[test]
    fn generated_inputs_are_valid_and_within_the_scale() {
        for scale in SCALES {
            for seed in 0..60 {
                let input = generate(seed, scale);
                let positions = validator::parse(&input, Original).unwrap();
                let allowed = scale.max(1);
                assert!(positions.len() as u64 <= allowed);
                assert!(positions.iter().all(|p| p.len() as u64 <= allowed));
                assert!(
                    positions.iter().flatten().all(|&h| h <= scale),
                    "scale {scale}"
                );
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_input_and_seeds_differ() {
        assert_eq!(generate(42, 1000), generate(42, 1000));
        assert_ne!(generate(42, 1000), generate(43, 1000));
    }

    #[test]
    fn solver_agrees_with_the_brute_force_and_both_answers_occur() {
        let (mut wins, mut losses) = (0, 0);
        for scale in SCALES {
            for seed in 0..50 {
                let input = generate(seed, scale);
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                solver::solve(&input, &mut fast).unwrap();
                brute::solve(&input, &mut slow).unwrap();
                assert_eq!(fast, slow, "seed {seed}, scale {scale}");
                let text = String::from_utf8(fast).unwrap();
                wins += text.lines().filter(|l| *l == "win").count();
                losses += text.lines().filter(|l| *l == "lose").count();
            }
        }
        assert!(wins > 100 && losses > 100, "{wins} wins, {losses} losses");
    }
}
