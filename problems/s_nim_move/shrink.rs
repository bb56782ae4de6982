//! Smaller s-nim-move inputs: fewer positions, heaps and takes; smaller heaps and takes. Each
//! candidate has fewer numbers, or as many and a smaller sum, so greedy shrinking terminates.
//! Numbers only go down and S stays distinct (a smaller take that equals another is skipped), so
//! every candidate is valid.

use super::validator::{parse, Instance, Repeats};
use crate::support::{cuts, join, push_capped, smaller_values, without};

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let Ok(instance) = parse(input, Repeats::Refused) else {
        return Vec::new();
    };
    let with = |change: &dyn Fn(&mut Instance)| {
        let mut next = instance.clone();
        change(&mut next);
        render(&next)
    };
    let (moves, positions) = (&instance.moves, &instance.positions);
    let mut candidates: Vec<Vec<u8>> = cuts(positions.len(), 1)
        .iter()
        .map(|cut| with(&|t| t.positions = without(positions, cut)))
        .collect();
    let mut fewer_heaps = Vec::new();
    let mut smaller_heaps = Vec::new();
    for (p, heaps) in positions.iter().enumerate() {
        for cut in cuts(heaps.len(), 1) {
            push_capped(&mut fewer_heaps, || {
                with(&|t| t.positions[p] = without(heaps, &cut))
            });
        }
        for (i, &heap) in heaps.iter().enumerate() {
            for value in smaller_values(heap, 0) {
                push_capped(&mut smaller_heaps, || with(&|t| t.positions[p][i] = value));
            }
        }
    }
    let fewer_moves = cuts(moves.len(), 1)
        .into_iter()
        .map(|cut| with(&|t| t.moves = without(moves, &cut)));
    let mut smaller_moves = Vec::new();
    for (i, &take) in moves.iter().enumerate() {
        for value in smaller_values(take, 1)
            .into_iter()
            .filter(|v| !moves.contains(v))
        {
            push_capped(&mut smaller_moves, || with(&|t| t.moves[i] = value));
        }
    }
    candidates.extend(fewer_heaps);
    candidates.extend(fewer_moves);
    candidates.extend(smaller_heaps);
    candidates.extend(smaller_moves);
    candidates
}

fn render(instance: &Instance) -> Vec<u8> {
    let mut text = format!(
        "{} {}\n{}\n",
        instance.moves.len(),
        join(&instance.moves),
        instance.positions.len()
    );
    for heaps in &instance.positions {
        text += &format!("{} {}\n", heaps.len(), join(heaps));
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
    fn measure(input: &[u8]) -> (usize, u64) {
        let instance = parse(input, Repeats::Refused).unwrap();
        let numbers: Vec<u64> = instance
            .moves
            .iter()
            .chain(instance.positions.iter().flatten())
            .copied()
            .collect();
        (numbers.len(), numbers.iter().sum())
    }

    #[test]
    fn candidates_are_valid_and_smaller() {
        let inputs: [&[u8]; 4] = [
            b"2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n",
            b"3 3 2 1\n1\n2 10000 10000\n",
            b"2 1 2 1 3 0 0 9",
            &super::super::generator::generate(3, 10_000),
        ];
        for input in inputs {
            let candidates = shrink(input);
            assert!(!candidates.is_empty());
            for candidate in candidates {
                validate_bytes(validate, &candidate, Constraints::Original).unwrap();
                assert!(measure(&candidate) < measure(input), "{candidate:?}");
            }
        }
        assert_eq!(shrink(b"1 1\n1\n1 0\n"), Vec::<Vec<u8>>::new());
        assert_eq!(shrink(b"not an input"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failing_input() {
        // Pretend the bug needs a heap of at least 7 and the take 3 in S.
        let fails = |input: &[u8]| {
            let instance = parse(input, Repeats::Refused).unwrap();
            instance.moves.contains(&3) && instance.positions.iter().flatten().any(|&h| h >= 7)
        };
        let mut input = b"3 9 3 4\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n".to_vec();
        assert!(fails(&input));
        while let Some(smaller) = shrink(&input).into_iter().find(|c| fails(c)) {
            input = smaller;
        }
        assert_eq!(input, b"1 3\n1\n1 7\n");
    }
}
