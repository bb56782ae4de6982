//! Random s-nim-duel cases within the limits: a distinct S of up to 10 takes up to 100 (dense or
//! spread, often holding 1), up to 10 heaps up to 1000 (empty, repeated, at the edges, below every
//! take), the start made losing half of the time so both sides come up; and mostly a seed line for
//! the judge's random moves, sometimes none (the judge's default).

use super::validator::{MAX_HEAP, MAX_HEAPS, MAX_TAKE, MAX_TAKES};
use crate::sg;
use crate::support::{
    between, cap, distinct_takes, join, mostly_small, random_position, rng, shaped,
};
use rand::RngExt;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let top_take = cap(scale, 1, MAX_TAKE);
    let top_heap = cap(scale, 0, MAX_HEAP);
    let k = mostly_small(&mut rng, cap(scale, 1, MAX_TAKES as u64)).min(top_take);
    let moves = distinct_takes(&mut rng, k, top_take);
    let heap_range = if rng.random_bool(0.5) {
        top_heap.min(between(&mut rng, 0, 60))
    } else {
        top_heap
    };
    let table = sg::subtraction_table(&moves, heap_range as usize);
    let heaps = random_position(
        &mut rng,
        cap(scale, 1, MAX_HEAPS as u64),
        heap_range,
        &table,
    );
    let mut text = format!("{k} {}\n{} {}\n", join(&moves), heaps.len(), join(&heaps));
    if !rng.random_ratio(1, 4) {
        text += &format!("{}\n", shaped(&mut rng, 0, u64::MAX));
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::super::validator::{parse, validate};
    use super::super::{brute, solver};
    use super::*;
    use crate::test_support::validate_bytes;
    use crate::Constraints;

    const SCALES: [u64; 8] = [0, 1, 2, 3, 10, 100, 1000, u64::MAX];

    #[test]
    fn generated_inputs_are_valid_and_within_the_scale() {
        let mut seeds = 0;
        for scale in SCALES {
            for seed in 0..80 {
                let input = generate(seed, scale);
                validate_bytes(validate, &input, Constraints::Original)
                    .unwrap_or_else(|e| panic!("seed {seed}, scale {scale}: {e}"));
                let instance = parse(&input, true).unwrap();
                let bound = scale.max(1);
                assert!(
                    instance.moves.len() as u64 <= bound && instance.heaps.len() as u64 <= bound
                );
                assert!(instance.moves.iter().all(|&s| s <= bound));
                assert!(instance.heaps.iter().all(|&h| h <= scale));
                seeds += usize::from(instance.seed.is_some());
            }
        }
        assert!(
            seeds > 300 && seeds < 600,
            "{seeds} of 640 inputs have a seed"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_input_and_seeds_differ() {
        assert_eq!(generate(5, 1000), generate(5, 1000));
        assert_ne!(generate(5, 1000), generate(6, 1000));
    }

    #[test]
    fn solver_agrees_with_the_brute_force_and_both_sides_win() {
        let (mut first, mut second) = (0, 0);
        for scale in SCALES {
            for seed in 100..160 {
                let input = generate(seed, scale);
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                solver::solve(&input, &mut fast).unwrap();
                brute::solve(&input, &mut slow).unwrap();
                assert_eq!(fast, slow, "seed {seed}, scale {scale}");
                first += usize::from(fast == b"first\n");
                second += usize::from(fast == b"second\n");
            }
        }
        assert!(first > 60 && second > 60, "{first} first, {second} second");
    }
}
