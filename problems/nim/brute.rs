//! Reference answers from the rules alone, by two methods that share nothing with the solver's
//! XOR shortcut beyond the Sprague-Grundy sum rule:
//! - heaps up to [`TABLE_MAX`]: g(h) is the mex of g over every heap a move reaches (all smaller
//!   heaps), computed explicitly, and a position loses when the XOR of the g-values is 0;
//! - larger heaps: Bouton's column parity, the position loses when every bit position is set in
//!   an even number of heaps.

use crate::sg;
use crate::{InputError, Scanner};

/// The largest heap the explicit mex table covers.
const TABLE_MAX: u64 = 1000;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let positions = read_positions(input)?;
    let largest_small = positions
        .iter()
        .flatten()
        .copied()
        .filter(|&h| h <= TABLE_MAX)
        .max()
        .unwrap_or(0);
    let table = mex_table(largest_small as usize);
    for heaps in &positions {
        let loses = if heaps.iter().all(|&h| h <= TABLE_MAX) {
            heaps.iter().fold(0, |acc, &h| acc ^ table[h as usize]) == 0
        } else {
            columns_are_even(heaps)
        };
        out.extend_from_slice(if loses { b"lose\n" } else { b"win\n" });
    }
    Ok(())
}

/// The positions, one per non-blank line.
fn read_positions(input: &[u8]) -> Result<Vec<Vec<u64>>, InputError> {
    let mut scanner = Scanner::new(input);
    let mut positions = Vec::new();
    while !scanner.at_end() {
        let mut heaps = Vec::new();
        while scanner.token_on_line() {
            heaps.push(scanner.u64("heap size")?);
        }
        positions.push(heaps);
    }
    Ok(positions)
}

/// g(0..=upto) for a single heap, where a move goes from h to any smaller heap.
pub(crate) fn mex_table(upto: usize) -> Vec<u32> {
    let mut table: Vec<u32> = Vec::with_capacity(upto + 1);
    for h in 0..=upto {
        let reachable = table[..h].iter().copied();
        table.push(sg::mex(reachable));
    }
    table
}

/// Bouton's formulation: every bit is set in an even number of heaps.
fn columns_are_even(heaps: &[u64]) -> bool {
    (0..64).all(|bit| heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() % 2 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Win/lose of every position of three heaps of at most 12 (missing heaps are empty heaps), by
    /// searching the game tree: a position wins when some move reaches a losing one. Positions are
    /// visited in increasing total size, so every option is decided first.
    fn game_tree_wins() -> Vec<Vec<Vec<bool>>> {
        let mut wins = vec![vec![vec![false; 13]; 13]; 13];
        for total in 0..=36usize {
            for a in 0..=12usize {
                for b in 0..=12usize {
                    let Some(c) = total.checked_sub(a + b).filter(|&c| c <= 12) else {
                        continue;
                    };
                    let win = (0..a).any(|x| !wins[x][b][c])
                        || (0..b).any(|x| !wins[a][x][c])
                        || (0..c).any(|x| !wins[a][b][x]);
                    wins[a][b][c] = win;
                }
            }
        }
        wins
    }

    fn run(input: &str) -> String {
        let mut out = Vec::new();
        solve(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn matches_the_game_tree_on_every_position_of_up_to_three_heaps() {
        let wins = game_tree_wins();
        let verdict = |a: usize, b: usize, c: usize| if wins[a][b][c] { "win\n" } else { "lose\n" };
        for a in 0..=12 {
            for b in 0..=12 {
                assert_eq!(run(&format!("{a} {b}")), verdict(a, b, 0), "{a} {b}");
                for c in 0..=12 {
                    assert_eq!(
                        run(&format!("{a} {b} {c}")),
                        verdict(a, b, c),
                        "{a} {b} {c}"
                    );
                }
            }
            assert_eq!(run(&format!("{a}")), verdict(a, 0, 0), "{a}");
        }
    }

    #[test]
    fn the_mex_table_is_the_identity_and_both_methods_agree() {
        // A heap's options are all smaller heaps, so by hand g(h) = h.
        assert!(mex_table(200)
            .iter()
            .enumerate()
            .all(|(h, &g)| g as usize == h));
        let mut state = 12345u64;
        for _ in 0..2000 {
            let heaps: Vec<u64> = (0..4)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 33) % (TABLE_MAX + 1)
                })
                .collect();
            let by_table = heaps.iter().fold(0, |acc, &h| acc ^ h) == 0;
            assert_eq!(columns_are_even(&heaps), by_table, "{heaps:?}");
        }
    }

    #[test]
    fn huge_heaps_use_column_parity() {
        // By hand: equal heaps cancel column by column; 2^60 + 5, 5 and 2^60 also cancel.
        let input =
            "1152921504606846976 1152921504606846976\n1152921504606846981 5 1152921504606846976\n\
                     1000000000000000000 1\n18446744073709551615 1 2\n";
        assert_eq!(run(input), "lose\nlose\nwin\nwin\n");
    }

    #[test]
    fn malformed_input_is_an_error() {
        let err = solve(b"1 2\n3 ?\n", &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
    }
}
