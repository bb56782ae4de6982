//! Smaller set-nim inputs: fewer heaps, fewer takes, smaller heaps, smaller takes (kept distinct
//! and at least 1). Each candidate has fewer numbers, or as many and a smaller sum, so greedy
//! shrinking terminates. Numbers only go down, so an input within the original limits gives
//! candidates within them; for an input that needs the extended limits, candidates that lose the
//! period those limits require are dropped.

use super::validator::{parse, Instance};
use crate::support::{cuts, push_capped, smaller_values, without};
use crate::Constraints;

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let original = parse(input, Constraints::Original).is_ok();
    let Ok(instance) = parse(input, Constraints::Extended) else {
        return Vec::new();
    };
    let mut candidates = Vec::new();
    for cut in cuts(instance.heaps.len(), 1) {
        let heaps = without(&instance.heaps, &cut);
        candidates.push(Instance {
            heaps,
            ..instance.clone()
        });
    }
    for cut in cuts(instance.moves.len(), 1) {
        let moves = without(&instance.moves, &cut);
        candidates.push(Instance {
            moves,
            ..instance.clone()
        });
    }
    let mut smaller_heaps = Vec::new();
    for (i, &heap) in instance.heaps.iter().enumerate() {
        for value in smaller_values(heap, 1) {
            push_capped(&mut smaller_heaps, || {
                let mut next = instance.clone();
                next.heaps[i] = value;
                next
            });
        }
    }
    let mut smaller_moves = Vec::new();
    for (i, &take) in instance.moves.iter().enumerate() {
        for value in smaller_values(take, 1) {
            if !instance.moves.contains(&value) {
                push_capped(&mut smaller_moves, || {
                    let mut next = instance.clone();
                    next.moves[i] = value;
                    next
                });
            }
        }
    }
    candidates.extend(smaller_heaps);
    candidates.extend(smaller_moves);
    candidates
        .iter()
        .map(render)
        .filter(|text| original || parse(text, Constraints::Extended).is_ok())
        .collect()
}

fn render(instance: &Instance) -> Vec<u8> {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    let (moves, heaps) = (&instance.moves, &instance.heaps);
    format!(
        "{}\n{}\n{}\n{}\n",
        moves.len(),
        list(moves),
        heaps.len(),
        list(heaps)
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Constraints::{Extended, Original};

    /// (count of numbers, their sum): every candidate must be smaller in this order.
    fn measure(input: &[u8]) -> (usize, u128) {
        let instance = parse(input, Extended).unwrap();
        let numbers = instance.moves.iter().chain(&instance.heaps);
        (
            numbers.clone().count(),
            numbers.map(|&v| u128::from(v)).sum(),
        )
    }

    #[test]
    fn candidates_are_valid_distinct_and_smaller() {
        let inputs: [&[u8]; 4] = [
            b"2\n2 5\n3\n2 4 7\n",
            b"5 1 2 3 4 5 6 10000 1 9999 2 5 5\n",
            b"1\n1\n1\n1\n",
            b"3\n4 1 3\n2\n1000000000000000000 77\n",
        ];
        for input in inputs {
            let limits = if parse(input, Original).is_ok() {
                Original
            } else {
                Extended
            };
            for candidate in shrink(input) {
                assert_eq!(
                    crate::test_support::validate_bytes(
                        super::super::validator::validate,
                        &candidate,
                        limits
                    ),
                    Ok(()),
                    "{candidate:?}"
                );
                assert!(measure(&candidate) < measure(input), "{candidate:?}");
            }
        }
        assert_eq!(shrink(b"1\n1\n1\n1\n"), Vec::<Vec<u8>>::new());
        assert_eq!(shrink(b"1\n1\n"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failure() {
        // Pretend the bug is "some heap is at least 3 and S holds a take of at least 2".
        let fails = |input: &[u8]| {
            let instance = parse(input, Original).unwrap();
            instance.heaps.iter().any(|&h| h >= 3) && instance.moves.iter().any(|&s| s >= 2)
        };
        let mut current = b"4\n9 1 7 3\n5\n8 1 6 6 2\n".to_vec();
        assert!(fails(&current));
        while let Some(next) = shrink(&current).into_iter().find(|c| fails(c)) {
            current = next;
        }
        assert_eq!(current, b"1\n2\n1\n3\n");
    }
}
