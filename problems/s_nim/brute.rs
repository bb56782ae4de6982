//! Reference answers from the rules alone: for each test case, g(x) is the mex of g(x - s) over
//! the takes `s` that fit in x (a repeated take is just the same option again), computed up to
//! the test case's largest heap, and each position's values are combined by the XOR rule. No
//! mask trick, no period; heaps above [`BRUTE_MAX_HEAP`] are refused. Like the solver, it accepts
//! an input that ends at a test-case boundary without the `0`.

use crate::sg;
use crate::{InputError, Scanner};

/// The largest heap the brute force tables; a little above the solver's direct-table bound, so
/// the solver's period path can be checked against it.
const BRUTE_MAX_HEAP: u64 = 1 << 21;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    while !scanner.at_end() {
        let k = scanner.u64_in("k", 0..=100)?;
        if k == 0 {
            return scanner.expect_end();
        }
        let moves = (0..k)
            .map(|_| scanner.u64_in("take", 1..=10_000))
            .collect::<Result<Vec<u64>, _>>()?;
        let m = scanner.u64_in("m", 1..=100)?;
        let mut positions = Vec::new();
        for _ in 0..m {
            let l = scanner.u64_in("l", 1..=100)?;
            let mut heaps = Vec::new();
            for _ in 0..l {
                let offset = scanner.next_token_offset();
                let heap = scanner.u64("heap size")?;
                if heap > BRUTE_MAX_HEAP {
                    return Err(scanner.error_at(
                        offset,
                        format!(
                            "heap size {heap} is beyond the brute force, which tables heaps up to {BRUTE_MAX_HEAP} only"
                        ),
                    ));
                }
                heaps.push(heap as usize);
            }
            positions.push(heaps);
        }
        let largest = positions.iter().flatten().copied().max().unwrap_or(0);
        let table = grundy_by_mex(&moves, largest);
        for heaps in &positions {
            let xor = heaps.iter().fold(0, |acc, &h| acc ^ table[h]);
            out.push(if xor != 0 { b'W' } else { b'L' });
        }
        out.push(b'\n');
    }
    Ok(())
}

/// g(0..=upto): the mex of the values one legal take away.
fn grundy_by_mex(moves: &[u64], upto: usize) -> Vec<u32> {
    let mut table: Vec<u32> = Vec::with_capacity(upto + 1);
    for x in 0..=upto {
        let options: Vec<u32> = moves
            .iter()
            .filter(|&&s| s as usize <= x)
            .map(|&s| table[x - s as usize])
            .collect();
        table.push(sg::mex(options));
    }
    table
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
            let mut wins = vec![vec![vec![false; 15]; 15]; 15];
            for total in 0..=42usize {
                for a in 0..=14usize {
                    for b in 0..=14usize {
                        let Some(c) = total.checked_sub(a + b).filter(|&c| c <= 14) else {
                            continue;
                        };
                        let win = moves.iter().map(|&s| s as usize).any(|s| {
                            (s <= a && !wins[a - s][b][c])
                                || (s <= b && !wins[a][b - s][c])
                                || (s <= c && !wins[a][b][c - s])
                        });
                        wins[a][b][c] = win;
                        assert_eq!(
                            table[a] ^ table[b] ^ table[c] != 0,
                            win,
                            "{moves:?}: {a} {b} {c}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn refuses_heaps_beyond_its_reach_and_bad_input() {
        let err = solve(b"1 1\n1\n2 0 3000000\n0\n", &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (3, 5));
        assert!(err.message.contains("beyond the brute force"), "{err}");
        let err = solve(b"1 1\n1\n2 0\n", &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (4, 1));
    }
}
