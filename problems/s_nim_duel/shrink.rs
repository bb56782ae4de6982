//! Smaller s-nim-duel cases: no seed line, fewer heaps, fewer takes, smaller heaps and takes.
//! Each candidate has fewer numbers, or as many and a smaller sum, so greedy shrinking
//! terminates; S stays distinct (a smaller take equal to another is skipped), so every candidate
//! is valid.

use super::validator::{parse, Instance};
use crate::support::{cuts, join, smaller_values, without};

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let Ok(instance) = parse(input, true) else {
        return Vec::new();
    };
    let with = |change: &dyn Fn(&mut Instance)| {
        let mut next = instance.clone();
        change(&mut next);
        render(&next)
    };
    let (moves, heaps) = (&instance.moves, &instance.heaps);
    let mut candidates = Vec::new();
    if instance.seed.is_some() {
        candidates.push(with(&|t| t.seed = None));
    }
    for cut in cuts(heaps.len(), 1) {
        candidates.push(with(&|t| t.heaps = without(heaps, &cut)));
    }
    for cut in cuts(moves.len(), 1) {
        candidates.push(with(&|t| t.moves = without(moves, &cut)));
    }
    for (i, &heap) in heaps.iter().enumerate() {
        for value in smaller_values(heap, 0) {
            candidates.push(with(&|t| t.heaps[i] = value));
        }
    }
    for (i, &take) in moves.iter().enumerate() {
        for value in smaller_values(take, 1)
            .into_iter()
            .filter(|v| !moves.contains(v))
        {
            candidates.push(with(&|t| t.moves[i] = value));
        }
    }
    candidates
}

fn render(instance: &Instance) -> Vec<u8> {
    let (moves, heaps) = (&instance.moves, &instance.heaps);
    let mut text = format!(
        "{} {}\n{} {}\n",
        moves.len(),
        join(moves),
        heaps.len(),
        join(heaps)
    );
    if let Some(seed) = instance.seed {
        text += &format!("{seed}\n");
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::super::validator::validate;
    use super::*;
    use crate::test_support::validate_bytes;
    use crate::Constraints;

    /// (count of numbers, their sum): every candidate must be smaller in this order.
    fn measure(input: &[u8]) -> (usize, u128) {
        let instance = parse(input, true).unwrap();
        let numbers: Vec<u64> = instance
            .moves
            .iter()
            .chain(&instance.heaps)
            .chain(&instance.seed)
            .copied()
            .collect();
        (numbers.len(), numbers.iter().map(|&v| u128::from(v)).sum())
    }

    #[test]
    fn candidates_are_valid_and_smaller() {
        for seed in 0..40 {
            let input = super::super::generator::generate(seed, 1000);
            for candidate in shrink(&input) {
                validate_bytes(validate, &candidate, Constraints::Original).unwrap();
                assert!(measure(&candidate) < measure(&input), "{candidate:?}");
            }
        }
        assert_eq!(shrink(b"1 1\n1 0\n"), Vec::<Vec<u8>>::new());
        assert_eq!(shrink(b"1 1\n1 0 7\n"), [b"1 1\n1 0\n".to_vec()]);
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failing_input() {
        // Pretend the bug needs a heap of at least 9 and two takes.
        let fails = |input: &[u8]| {
            let instance = parse(input, true).unwrap();
            instance.moves.len() >= 2 && instance.heaps.iter().any(|&h| h >= 9)
        };
        let mut input = b"3 9 3 4\n3 20 1 700\n12345\n".to_vec();
        while let Some(smaller) = shrink(&input).into_iter().find(|c| fails(c)) {
            input = smaller;
        }
        assert_eq!(input, b"2 1 2\n1 9\n");
    }
}
