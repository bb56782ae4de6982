//! Random s-nim-move inputs within the limits: a distinct S, small and dense or spread up to 10^4,
//! often holding 1; positions with empty heaps, repeated heaps, heaps at the edges and below every
//! take, half of them made to cancel (so `lose` comes up as often as a move).

use super::validator::{MAX_COUNT, MAX_HEAP, MAX_TAKE};
use crate::sg;
use crate::support::{between, cap, distinct_takes, join, mostly_small, random_position, rng};
use rand::RngExt;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let max_count = cap(scale, 1, MAX_COUNT as u64);
    let top_take = cap(scale, 1, MAX_TAKE);
    let top_heap = cap(scale, 0, MAX_HEAP);
    let k = mostly_small(&mut rng, max_count).min(top_take);
    let moves = distinct_takes(&mut rng, k, top_take);
    let heap_range = if rng.random_bool(0.5) {
        top_heap.min(between(&mut rng, 0, 60))
    } else {
        top_heap
    };
    let table = sg::subtraction_table(&moves, heap_range as usize);
    let m = mostly_small(&mut rng, max_count);
    let mut text = format!("{k} {}\n{m}\n", join(&moves));
    for _ in 0..m {
        let heaps = random_position(&mut rng, max_count, heap_range, &table);
        text += &format!("{} {}\n", heaps.len(), join(&heaps));
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::super::validator::{parse, validate, Repeats};
    use super::super::{brute, checker, solver};
    use super::*;
    use crate::test_support::validate_bytes;
    use crate::{Constraints, Decision};

    const SCALES: [u64; 9] = [0, 1, 2, 3, 5, 10, 100, 10_000, u64::MAX];

    #[test]
    fn generated_inputs_are_valid_and_within_the_scale() {
        for scale in SCALES {
            for seed in 0..60 {
                let input = generate(seed, scale);
                validate_bytes(validate, &input, Constraints::Original)
                    .unwrap_or_else(|e| panic!("seed {seed}, scale {scale}: {e}"));
                let instance = parse(&input, Repeats::Refused).unwrap();
                let bound = scale.max(1);
                assert!(instance.moves.len() as u64 <= bound);
                assert!(instance.positions.len() as u64 <= bound);
                assert!(instance.moves.iter().all(|&s| s <= bound));
                assert!(instance.positions.iter().all(|p| p.len() as u64 <= bound));
                assert!(instance.positions.iter().flatten().all(|&h| h <= scale));
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_input_and_seeds_differ() {
        assert_eq!(generate(5, 10_000), generate(5, 10_000));
        assert_ne!(generate(5, 10_000), generate(6, 10_000));
    }

    #[test]
    fn solver_and_brute_force_answers_pass_the_checker_and_agree_on_lose() {
        let (mut moves, mut losses, mut other_moves) = (0, 0, 0);
        for scale in SCALES {
            for seed in 300..360 {
                let input = generate(seed, scale);
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                solver::solve(&input, &mut fast).unwrap();
                brute::solve(&input, &mut slow).unwrap();
                let context = format!("seed {seed}, scale {scale}");
                assert_eq!(
                    checker::check(&input, &slow, &fast),
                    Decision::Accept,
                    "{context}"
                );
                assert_eq!(
                    checker::check(&input, &fast, &slow),
                    Decision::Accept,
                    "{context}"
                );
                let (fast, slow) = (
                    String::from_utf8(fast).unwrap(),
                    String::from_utf8(slow).unwrap(),
                );
                for (a, b) in fast.lines().zip(slow.lines()) {
                    assert_eq!(a == "lose", b == "lose", "{context}");
                    losses += usize::from(a == "lose");
                    moves += usize::from(a != "lose");
                    other_moves += usize::from(a != b);
                }
            }
        }
        assert!(
            moves > 300 && losses > 300,
            "{moves} moves, {losses} losses"
        );
        // The two pick their moves differently, so the checker sees more than one right answer.
        assert!(other_moves > 50, "{other_moves}");
    }
}
