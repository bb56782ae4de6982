//! Smaller s-nim inputs: fewer test cases, positions, heaps and takes; smaller heaps and takes.
//! Each candidate has fewer numbers, or as many and a smaller sum, so greedy shrinking
//! terminates. Numbers only go down, so an input within the original limits gives candidates
//! within them; for an input that needs the extended limits, candidates that lose the period
//! those limits require are dropped. Output is canonical: one test case per block, then `0`.

use super::validator::{parse, TestCase};
use crate::support::{cuts, join, push_capped, smaller_values, without};
use crate::Constraints;

pub fn shrink(input: &[u8]) -> Vec<Vec<u8>> {
    let original = parse(input, Constraints::Original).is_ok();
    let Ok(cases) = parse(input, Constraints::Extended) else {
        return Vec::new();
    };
    let mut candidates: Vec<Vec<u8>> = cuts(cases.len(), 1)
        .iter()
        .map(|cut| render(&without(&cases, cut)))
        .collect();
    // One kind of change at a time, each kind capped, coarse kinds first.
    let mut fewer_positions = Vec::new();
    let mut fewer_heaps = Vec::new();
    let mut fewer_moves = Vec::new();
    let mut smaller_heaps = Vec::new();
    let mut smaller_moves = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let with = |change: &dyn Fn(&mut TestCase)| {
            let mut next = cases.clone();
            change(&mut next[c]);
            render(&next)
        };
        for cut in cuts(case.positions.len(), 1) {
            push_capped(&mut fewer_positions, || {
                with(&|t| t.positions = without(&t.positions, &cut))
            });
        }
        for cut in cuts(case.moves.len(), 1) {
            push_capped(&mut fewer_moves, || {
                with(&|t| t.moves = without(&t.moves, &cut))
            });
        }
        for (i, &take) in case.moves.iter().enumerate() {
            for value in smaller_values(take, 1) {
                push_capped(&mut smaller_moves, || with(&|t| t.moves[i] = value));
            }
        }
        for (p, heaps) in case.positions.iter().enumerate() {
            for cut in cuts(heaps.len(), 1) {
                push_capped(&mut fewer_heaps, || {
                    with(&|t| t.positions[p] = without(&t.positions[p], &cut))
                });
            }
            for (i, &heap) in heaps.iter().enumerate() {
                for value in smaller_values(heap, 0) {
                    push_capped(&mut smaller_heaps, || with(&|t| t.positions[p][i] = value));
                }
            }
        }
    }
    for kind in [
        fewer_positions,
        fewer_heaps,
        fewer_moves,
        smaller_heaps,
        smaller_moves,
    ] {
        candidates.extend(kind);
    }
    candidates.retain(|text| original || parse(text, Constraints::Extended).is_ok());
    candidates
}

fn render(cases: &[TestCase]) -> Vec<u8> {
    let mut text = String::new();
    for case in cases {
        text += &format!(
            "{} {}\n{}\n",
            case.moves.len(),
            join(&case.moves),
            case.positions.len()
        );
        for heaps in &case.positions {
            text += &format!("{} {}\n", heaps.len(), join(heaps));
        }
    }
    text += "0\n";
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Constraints::{Extended, Original};

    /// (count of numbers, their sum): every candidate must be smaller in this order.
    fn measure(input: &[u8]) -> (usize, u128) {
        let cases = parse(input, Extended).unwrap();
        let mut numbers: Vec<u64> = Vec::new();
        for case in &cases {
            numbers.extend(&case.moves);
            numbers.extend(case.positions.iter().flatten());
        }
        (numbers.len(), numbers.iter().map(|&v| u128::from(v)).sum())
    }

    #[test]
    fn candidates_are_valid_and_smaller() {
        let sample: &[u8] =
            b"2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";
        let inputs: [&[u8]; 4] = [
            sample,
            b"3 4 4 1 2 1 0 2 10000 10000 0",
            b"2 1 2\n1\n2 1000000000000000000 3\n0\n",
            &super::super::generator::generate(3, 10_000),
        ];
        for input in inputs {
            let limits = if parse(input, Original).is_ok() {
                Original
            } else {
                Extended
            };
            let candidates = shrink(input);
            assert!(!candidates.is_empty());
            for candidate in candidates {
                assert_eq!(
                    crate::test_support::validate_bytes(
                        super::super::validator::validate,
                        &candidate,
                        limits
                    ),
                    Ok(())
                );
                assert!(measure(&candidate) < measure(input), "{candidate:?}");
            }
        }
        assert_eq!(shrink(b"1 1\n1\n1 0\n0\n"), Vec::<Vec<u8>>::new());
        assert_eq!(shrink(b"0\n"), Vec::<Vec<u8>>::new());
        assert_eq!(shrink(b"1 1\n1\n1 0\n"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn a_huge_input_gives_a_bounded_number_of_candidates() {
        let row = format!("100 {}\n", vec!["10000"; 100].join(" "));
        let case = format!("100 {}\n100\n{}", vec!["7"; 100].join(" "), row.repeat(100));
        let input = case.repeat(2) + "0\n";
        let candidates = shrink(input.as_bytes());
        assert!(candidates.len() <= 6 * crate::support::CANDIDATES_PER_KIND);
        assert!(candidates.len() >= 5 * crate::support::CANDIDATES_PER_KIND);
    }

    #[test]
    fn greedy_shrinking_reaches_a_minimal_failure() {
        // Pretend the bug is "a test case whose S holds a take of at least 3 and a position with a
        // heap of at least 4".
        let fails = |input: &[u8]| {
            parse(input, Original).unwrap().iter().any(|case| {
                case.moves.iter().any(|&s| s >= 3)
                    && case.positions.iter().flatten().any(|&h| h >= 4)
            })
        };
        let sample: &[u8] =
            b"2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";
        let mut current = sample.to_vec();
        while let Some(next) = shrink(&current).into_iter().find(|c| fails(c)) {
            current = next;
        }
        assert_eq!(current, b"1 3\n1\n1 4\n0\n");
    }
}
