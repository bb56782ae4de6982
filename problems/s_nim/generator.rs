//! Random s-nim inputs within the original limits: a few test cases whose sets are small or
//! large, dense or spread, unsorted and sometimes with repeated takes; positions with empty heaps,
//! duplicated heaps, edge sizes, and positions made to cancel (so `L` comes up as often as `W`).

use super::validator::{MAX_COUNT, MAX_TAKE, ORIGINAL_MAX_HEAP};
use crate::sg;
use crate::support::{between, cap, join, mostly_small, random_position, rng, shaped, take_range};
use rand::{Rng, RngExt};

/// Test cases per input: enough to catch state leaking between them, few enough to stay quick.
const MAX_TEST_CASES: u64 = 5;

pub fn generate(seed: u64, scale: u64) -> Vec<u8> {
    let mut rng = rng(seed);
    let max_count = cap(scale, 1, MAX_COUNT);
    let top_take = cap(scale, 1, MAX_TAKE);
    let top_heap = cap(scale, 0, ORIGINAL_MAX_HEAP);
    let mut text = String::new();
    for _ in 0..between(&mut rng, 1, max_count.min(MAX_TEST_CASES)) {
        let moves = random_moves(&mut rng, max_count, top_take);
        let heap_range = if rng.random_bool(0.5) {
            top_heap.min(between(&mut rng, 0, 60))
        } else {
            top_heap
        };
        let table = sg::subtraction_table(&moves, heap_range as usize);
        let m = mostly_small(&mut rng, max_count);
        text += &format!("{} {}\n{m}\n", moves.len(), join(&moves));
        for _ in 0..m {
            let heaps = random_position(&mut rng, max_count, heap_range, &table);
            text += &format!("{} {}\n", heaps.len(), join(&heaps));
        }
    }
    text += "0\n";
    text.into_bytes()
}

fn random_moves(rng: &mut impl Rng, max_count: u64, top_take: u64) -> Vec<u64> {
    let k = mostly_small(rng, max_count);
    let range = take_range(rng, top_take, 1, 7);
    let mut moves: Vec<u64> = (0..k).map(|_| shaped(rng, 1, range)).collect();
    if k >= 2 && rng.random_ratio(1, 4) {
        moves[0] = moves[k as usize - 1];
    }
    moves
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
            for seed in 0..60 {
                let input = generate(seed, scale);
                let cases = validator::parse(&input, Original)
                    .unwrap_or_else(|e| panic!("seed {seed}, scale {scale}: {e}"));
                let bound = scale.max(1);
                assert!(cases.len() as u64 <= bound);
                for case in &cases {
                    assert!(
                        case.moves.len() as u64 <= bound && case.positions.len() as u64 <= bound
                    );
                    assert!(case.moves.iter().all(|&s| s <= bound));
                    assert!(case.positions.iter().all(|p| p.len() as u64 <= bound));
                    assert!(case.positions.iter().flatten().all(|&h| h <= scale));
                }
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_input_and_seeds_differ() {
        assert_eq!(generate(5, 10_000), generate(5, 10_000));
        assert_ne!(generate(5, 10_000), generate(6, 10_000));
    }

    #[test]
    fn solver_agrees_with_the_brute_force_and_both_answers_occur() {
        let (mut wins, mut losses) = (0, 0);
        for scale in SCALES {
            for seed in 200..240 {
                let input = generate(seed, scale);
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                solver::solve(&input, &mut fast).unwrap();
                brute::solve(&input, &mut slow).unwrap();
                assert_eq!(fast, slow, "seed {seed}, scale {scale}");
                wins += fast.iter().filter(|&&b| b == b'W').count();
                losses += fast.iter().filter(|&&b| b == b'L').count();
            }
        }
        assert!(wins > 300 && losses > 300, "{wins} W, {losses} L");
    }
}
