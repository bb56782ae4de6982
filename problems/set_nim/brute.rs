//! Reference answers from the rules alone: g(x) is the mex of g(x - s) over the takes `s` that fit
//! in x, computed for every x up to the largest heap, and the XOR rule combines the heaps. No mask
//! trick, and not the solver's period search.
//!
//! Heaps above [`BRUTE_MAX_HEAP`] (the extended limits go to 10^18) are answered through a second,
//! independent computation of the period: the same explicit-mex table, built up to at most
//! `BRUTE_MAX_HEAP` values, is compared with itself shifted by 1, 2, 3, ... until a shift p agrees
//! from some index s on and the table holds the two windows of max S values at s and s + p; by
//! the window argument that proves g(x + p) = g(x) for every x >= s (see
//! [`crate::support::period_by_comparison`]). When the table proves no period, the heap is refused.
//! The reach is twice the solver's period search, so every input the extended limits allow is
//! answered.

use crate::support::{beyond_rules_only_reach, grundy_by_mex, read_takes, RulesOnlyValues};
use crate::{InputError, Scanner};

/// The largest heap the brute force tables directly, and the length of table it may build to find
/// a period for larger heaps; a little above the solver's direct-table bound, so the solver's
/// period path can be checked against the plain table.
pub(super) const BRUTE_MAX_HEAP: u64 = 1 << 21;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    let k = scanner.usize_in("k", 1..=100)?;
    let moves = read_takes(&mut scanner, k, 10_000)?;
    let n = scanner.usize_in("n", 1..=100)?;
    let mut heaps = Vec::with_capacity(n);
    let mut first_beyond = None;
    for _ in 0..n {
        let offset = scanner.next_token_offset();
        let heap = scanner.u64("heap size")?;
        if heap > BRUTE_MAX_HEAP && first_beyond.is_none() {
            first_beyond = Some((offset, heap));
        }
        heaps.push(heap);
    }
    scanner.expect_end()?;
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let reach = BRUTE_MAX_HEAP as usize;
    let rules_table = |upto| grundy_by_mex(&moves, upto);
    let Some(values) = RulesOnlyValues::for_heaps(rules_table, &moves, largest, reach) else {
        let (offset, heap) = first_beyond.unwrap_or((0, largest));
        return Err(scanner.error_at(offset, beyond_rules_only_reach(heap, reach)));
    };
    let xor = heaps.iter().fold(0, |acc, &h| acc ^ values.at(h));
    out.extend_from_slice(if xor != 0 { b"Yes\n" } else { b"No\n" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_a_search_of_the_two_heap_game_tree() {
        // Win/lose of two heaps by searching the game tree directly (a position wins when some
        // take reaches a losing one); the mex table with the XOR rule must say the same.
        for moves in [&[1u64, 3, 4][..], &[2, 5], &[3], &[1, 2, 6], &[4, 6, 5]] {
            let table = grundy_by_mex(moves, 40);
            let mut wins = vec![vec![false; 41]; 41];
            for a in 0..=40usize {
                for b in 0..=40usize {
                    wins[a][b] = moves
                        .iter()
                        .map(|&s| s as usize)
                        .any(|s| (s <= a && !wins[a - s][b]) || (s <= b && !wins[a][b - s]));
                    assert_eq!(table[a] ^ table[b] != 0, wins[a][b], "{moves:?}: {a} {b}");
                }
            }
        }
    }

    #[test]
    fn seed_tables() {
        // The seed 001 article's {1, 3, 4}, and {2, 5} worked by hand in statement.md.
        assert_eq!(grundy_by_mex(&[1, 3, 4], 8), [0, 1, 0, 1, 2, 3, 2, 0, 1]);
        assert_eq!(grundy_by_mex(&[2, 5], 7), [0, 0, 1, 1, 0, 2, 1, 0]);
        let mut out = Vec::new();
        solve(b"2\n2 5\n3\n2 4 7\n", &mut out).unwrap();
        assert_eq!(out, b"Yes\n");
    }

    #[test]
    fn huge_heaps_go_through_the_compared_period_and_agree_with_the_solver() {
        // By hand: {1, 3, 4} repeats 0 1 0 1 2 3 2 from 0, and 10^18 = 1 (mod 7): g = 1, while
        // 10^18 - 1 = 0 (mod 7) gives 0. Then random small sets against the solver, whose period
        // comes from sg::subtraction_period.
        let mut out = Vec::new();
        solve(b"3\n4 1 3\n2\n1000000000000000000 1\n", &mut out).unwrap();
        solve(b"3\n4 1 3\n1\n999999999999999999\n", &mut out).unwrap();
        assert_eq!(out, b"No\nNo\n");
        let mut state = 0x5eed_u64;
        let mut next = |modulus: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % modulus
        };
        for _ in 0..60 {
            let moves: Vec<u64> = (0..1 + next(4)).map(|_| 1 + next(25)).collect();
            let mut distinct = moves.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let heaps: Vec<u64> = (0..1 + next(3))
                .map(|_| 1 + next(1_000_000_000_000_000_000))
                .collect();
            let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            let case = format!(
                "{}\n{}\n{}\n{}\n",
                distinct.len(),
                list(&distinct),
                heaps.len(),
                list(&heaps)
            );
            let (mut slow, mut fast) = (Vec::new(), Vec::new());
            solve(case.as_bytes(), &mut slow).unwrap();
            super::super::solver::solve(case.as_bytes(), &mut fast).unwrap();
            assert_eq!(slow, fast, "{case}");
        }
    }

    #[test]
    fn refuses_huge_heaps_whose_period_its_table_cannot_prove() {
        let takes = crate::test_support::takes_without_a_period_in_reach();
        let list: Vec<String> = takes.iter().map(u64::to_string).collect();
        let input = format!("100\n{}\n2\n5 1000000000000\n", list.join(" "));
        let err = solve(input.as_bytes(), &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (4, 3));
        assert!(err.message.contains("beyond the brute force"), "{err}");
        assert!(err.message.contains("shows no period"), "{err}");
    }
}
