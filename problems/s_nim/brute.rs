//! Reference answers from the rules alone: for each test case, g(x) is the mex of g(x - s) over
//! the takes `s` that fit in x (a repeated take is just the same option again), computed up to
//! the test case's largest heap, and each position's values are combined by the XOR rule. No
//! mask trick, and not the solver's period search. Like the solver, it accepts an input that ends
//! at a test-case boundary without the `0`.
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
const BRUTE_MAX_HEAP: u64 = 1 << 21;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    while !scanner.at_end() {
        let k = scanner.u64_in("k", 0..=100)?;
        if k == 0 {
            return scanner.expect_end();
        }
        let moves = read_takes(&mut scanner, k as usize, 10_000)?;
        let m = scanner.u64_in("m", 1..=100)?;
        let mut positions = Vec::new();
        let mut first_beyond = None;
        for _ in 0..m {
            let l = scanner.u64_in("l", 1..=100)?;
            let mut heaps = Vec::new();
            for _ in 0..l {
                let offset = scanner.next_token_offset();
                let heap = scanner.u64("heap size")?;
                if heap > BRUTE_MAX_HEAP && first_beyond.is_none() {
                    first_beyond = Some((offset, heap));
                }
                heaps.push(heap);
            }
            positions.push(heaps);
        }
        let largest = positions.iter().flatten().copied().max().unwrap_or(0);
        let reach = BRUTE_MAX_HEAP as usize;
        let rules_table = |upto| grundy_by_mex(&moves, upto);
        let Some(values) = RulesOnlyValues::for_heaps(rules_table, &moves, largest, reach) else {
            let (offset, heap) = first_beyond.unwrap_or((0, largest));
            return Err(scanner.error_at(offset, beyond_rules_only_reach(heap, reach)));
        };
        for heaps in &positions {
            let xor = heaps.iter().fold(0, |acc, &h| acc ^ values.at(h));
            out.push(if xor != 0 { b'W' } else { b'L' });
        }
        out.push(b'\n');
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> String {
        let mut out = Vec::new();
        solve(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn sample() {
        let sample =
            "2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";
        assert_eq!(run(sample), "LWW\nWWL\n");
    }

    #[test]
    fn the_table_matches_a_search_of_the_three_heap_game_tree() {
        // Win/lose of three heaps of at most 14 by searching the game tree directly (a position
        // wins when some take reaches a losing one), against the mex table and the XOR rule.
        for moves in [&[2u64, 5][..], &[3, 1, 3], &[4, 7], &[1, 2, 3, 4, 5, 6]] {
            let table = grundy_by_mex(moves, 14);
            let wins = crate::test_support::wins_by_search(moves, 14);
            for a in 0..=14usize {
                for b in 0..=14usize {
                    for c in 0..=14usize {
                        assert_eq!(
                            table[a] ^ table[b] ^ table[c] != 0,
                            wins[a][b][c],
                            "{moves:?}: {a} {b} {c}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn huge_heaps_go_through_the_compared_period_and_agree_with_the_solver() {
        // By hand: {1} alternates, and {2, 5} repeats 0 0 1 1 0 2 1 with 10^18 = 1 (mod 7).
        let e18 = 1_000_000_000_000_000_000u64;
        let by_hand = format!(
            "1 1\n2\n1 {e18}\n2 {e18} 3000001\n2 5 2\n2\n1 {}\n2 {} 2\n0\n",
            e18 - 3,
            e18 - 3
        );
        assert_eq!(run(&by_hand), "LW\nWW\n");
        let mut state = 0xfeed_u64;
        let mut next = |modulus: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % modulus
        };
        let mut text = String::new();
        for _ in 0..40 {
            let k = 1 + next(4);
            let moves: Vec<String> = (0..k).map(|_| (1 + next(25)).to_string()).collect();
            text += &format!("{k} {}\n3\n", moves.join(" "));
            for _ in 0..3 {
                text += &format!("2 {} {}\n", next(e18 + 1), next(100));
            }
        }
        text += "0\n";
        let mut fast = Vec::new();
        super::super::solver::solve(text.as_bytes(), &mut fast).unwrap();
        assert_eq!(run(&text), String::from_utf8(fast).unwrap());
    }

    #[test]
    fn refuses_heaps_whose_period_its_table_cannot_prove_and_bad_input() {
        let takes: Vec<String> = crate::test_support::takes_without_a_period_in_reach()
            .iter()
            .map(u64::to_string)
            .collect();
        let input = format!("100 {}\n1\n2 0 3000000\n0\n", takes.join(" "));
        let err = solve(input.as_bytes(), &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (3, 5));
        assert!(err.message.contains("beyond the brute force"), "{err}");
        let err = solve(b"1 1\n1\n2 0\n", &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (4, 1));
    }
}
