//! Smaller Nim inputs: fewer positions, fewer heaps, smaller heaps. Each candidate has fewer
//! heaps, or as many heaps and a smaller sum, so greedy shrinking terminates; values only go
//! down, so candidates keep whatever limits the input met.

use super::validator::parse;
use crate::support::{cuts, push_capped, smaller_values, without};
use crate::Constraints;

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let Ok(positions) = parse(input, Constraints::Extended) else {
        return Vec::new();
    };
    let mut candidates: Vec<Vec<u8>> = Vec::new();
    for cut in cuts(positions.len(), 1) {
        candidates.push(render(&without(&positions, &cut)));
    }
    let mut fewer_heaps = Vec::new();
    for (i, heaps) in positions.iter().enumerate() {
        for cut in cuts(heaps.len(), 1) {
            push_capped(&mut fewer_heaps, || {
                let mut smaller = positions.clone();
                smaller[i] = without(heaps, &cut);
                render(&smaller)
            });
        }
    }
    let mut smaller_heaps = Vec::new();
    for (i, heaps) in positions.iter().enumerate() {
        for (j, &heap) in heaps.iter().enumerate() {
            for value in smaller_values(heap, 0) {
                push_capped(&mut smaller_heaps, || {
                    let mut smaller = positions.clone();
                    smaller[i][j] = value;
                    render(&smaller)
                });
            }
        }
    }
    candidates.extend(fewer_heaps);
    candidates.extend(smaller_heaps);
    candidates
}

fn render(positions: &[Vec<u64>]) -> Vec<u8> {
    let mut text = String::new();
    for heaps in positions {
        let line: Vec<String> = heaps.iter().map(u64::to_string).collect();
        text += &line.join(" ");
        text.push('\n');
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Constraints::Original;

    /// (number of heaps, sum of heaps): every candidate must be smaller in this order.
    fn measure(input: &[u8]) -> (usize, u128) {
        let positions = parse(input, Constraints::Extended).unwrap();
        let heaps = positions.iter().flatten();
        (heaps.clone().count(), heaps.map(|&h| u128::from(h)).sum())
    }

    #[test]
    fn candidates_are_valid_and_smaller() {
        let inputs: [&[u8]; 4] = [
            b"1 2 3\n",
            b"\n7 0 1000000000000000000\r\n5\n\n12 12 1\n",
            b"4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4\n",
            b"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n",
        ];
        for input in inputs {
            let candidates = shrink(input);
            assert!(!candidates.is_empty());
            for candidate in candidates {
                assert_eq!(
                    crate::test_support::validate_bytes(
                        super::super::validator::validate,
                        &candidate,
                        Original
                    ),
                    Ok(())
                );
                assert!(measure(&candidate) < measure(input), "{candidate:?}");
            }
        }
    }

    #[test]
    fn most_aggressive_first_and_nothing_below_a_single_empty_heap() {
        let candidates = shrink(b"3 1\n2\n");
        assert_eq!(candidates[0], b"2\n");
        assert_eq!(candidates[1], b"3 1\n");
        assert!(candidates.contains(&b"3\n2\n".to_vec()));
        assert!(candidates.contains(&b"1 1\n2\n".to_vec()));
        assert_eq!(shrink(b"0\n"), Vec::<Vec<u8>>::new());
        assert_eq!(shrink(b"not nim"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failure() {
        // Pretend the bug is "a position holding a heap of at least 5 fails".
        let fails = |input: &[u8]| {
            parse(input, Original)
                .unwrap()
                .iter()
                .flatten()
                .any(|&h| h >= 5)
        };
        let mut current = b"1 9 3\n0 0 7\n2\n".to_vec();
        while let Some(next) = shrink(&current).into_iter().find(|c| fails(c)) {
            current = next;
        }
        assert_eq!(current, b"5\n");
    }
}
