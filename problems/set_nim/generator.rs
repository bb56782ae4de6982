//! Random set-nim inputs within the original limits: sets that are small and dense, spread out,
//! with or without 1, or with takes larger than every heap; heaps at the edges, duplicated, or
//! chosen so the Grundy values cancel (so `No` comes up as often as `Yes`); varied line layouts.

use super::validator::{MAX_COUNT, MAX_TAKE, ORIGINAL_MAX_HEAP};
use crate::sg;
use crate::support::{between, cap, distinct_takes, rng, shaped};
use rand::RngExt;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let top_take = cap(scale, 1, MAX_TAKE);
    let top_heap = cap(scale, 1, ORIGINAL_MAX_HEAP);
    let max_count = cap(scale, 1, MAX_COUNT as u64);
    let small_count = |rng: &mut rand_chacha::ChaCha8Rng| {
        if rng.random_bool(0.6) {
            between(rng, 1, max_count.min(6))
        } else {
            between(rng, 1, max_count)
        }
    };
    let k = small_count(&mut rng).min(top_take);
    let moves = distinct_takes(&mut rng, k, top_take);
    let n = small_count(&mut rng);
    let heap_range = if rng.random_bool(0.5) {
        top_heap.min(between(&mut rng, 1, 80))
    } else {
        top_heap
    };
    let mut heaps: Vec<u64> = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let heap = if !heaps.is_empty() && rng.random_ratio(1, 5) {
            heaps[between(&mut rng, 0, heaps.len() as u64 - 1) as usize]
        } else {
            shaped(&mut rng, 1, heap_range)
        };
        heaps.push(heap);
    }
    if rng.random_bool(0.5) {
        make_losing(&mut rng, &moves, &mut heaps, heap_range);
    }
    render(&mut rng, &moves, &heaps)
}

/// Replaces the last heap, when possible, by one whose Grundy value cancels the others.
fn make_losing(rng: &mut impl rand::Rng, moves: &[u64], heaps: &mut [u64], heap_range: u64) {
    let table = sg::subtraction_table(moves, heap_range as usize);
    let Some((last, rest)) = heaps.split_last_mut() else {
        return;
    };
    let wanted = rest.iter().fold(0, |acc, &h| acc ^ table[h as usize]);
    let fitting: Vec<u64> = (1..=heap_range)
        .filter(|&h| table[h as usize] == wanted)
        .collect();
    if !fitting.is_empty() {
        *last = fitting[between(rng, 0, fitting.len() as u64 - 1) as usize];
    }
}

fn render(rng: &mut impl rand::Rng, moves: &[u64], heaps: &[u64]) -> Vec<u8> {
    let list = |v: &[u64], sep: &str| v.iter().map(u64::to_string).collect::<Vec<_>>().join(sep);
    let text = match rng.random_range(0..8u32) {
        // One number per line.
        0 => format!(
            "{}\n{}\n{}\n{}\n",
            moves.len(),
            list(moves, "\n"),
            heaps.len(),
            list(heaps, "\n")
        ),
        // Everything on one line, no final newline.
        1 => format!(
            "{} {} {} {}",
            moves.len(),
            list(moves, " "),
            heaps.len(),
            list(heaps, " ")
        ),
        // The judge's four lines.
        _ => format!(
            "{}\n{}\n{}\n{}\n",
            moves.len(),
            list(moves, " "),
            heaps.len(),
            list(heaps, " ")
        ),
    };
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::super::{brute, solver, validator};
    use super::*;
    use crate::Constraints::Original;

    const SCALES: [u64; 9] = [0, 1, 2, 3, 5, 10, 100, 10_000, u64::MAX];

    #[test]
    fn generated_inputs_are_valid_and_within_the_scale() {
        for scale in SCALES {
            for seed in 0..80 {
                let input = generate(seed, scale);
                let instance = validator::parse(&input, Original)
                    .unwrap_or_else(|e| panic!("seed {seed}, scale {scale}: {e}"));
                let bound = scale.max(1);
                assert!(
                    instance.moves.len() as u64 <= bound && instance.heaps.len() as u64 <= bound
                );
                let values = instance.moves.iter().chain(&instance.heaps);
                assert!(
                    values.clone().all(|&v| v <= bound),
                    "seed {seed}, scale {scale}"
                );
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_input_and_seeds_differ() {
        assert_eq!(generate(9, 10_000), generate(9, 10_000));
        assert_ne!(generate(9, 10_000), generate(10, 10_000));
    }

    #[test]
    fn solver_agrees_with_the_brute_force_and_both_answers_occur() {
        let (mut yes, mut no) = (0, 0);
        for scale in SCALES {
            for seed in 100..140 {
                let input = generate(seed, scale);
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                solver::solve(&input, &mut fast).unwrap();
                brute::solve(&input, &mut slow).unwrap();
                assert_eq!(fast, slow, "seed {seed}, scale {scale}");
                if fast == b"Yes\n" {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 60 && no > 60, "{yes} Yes, {no} No");
    }
}
