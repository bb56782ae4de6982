//! Reference answers from the rules alone: g(x) is the mex of g(x - s) over the takes `s` that fit
//! in x, computed for every x up to the largest heap, and the XOR rule combines the heaps. No mask
//! trick, no period; heaps above [`BRUTE_MAX_HEAP`] are refused.

use crate::sg;
use crate::{InputError, Scanner};

/// The largest heap the brute force tables; a little above the solver's direct-table bound, so
/// the solver's period path can be checked against it.
pub(super) const BRUTE_MAX_HEAP: u64 = 1 << 21;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    let k = scanner.usize_in("k", 1..=100)?;
    let moves = (0..k)
        .map(|_| scanner.u64_in("take", 1..=10_000))
        .collect::<Result<Vec<u64>, _>>()?;
    let n = scanner.usize_in("n", 1..=100)?;
    let mut heaps = Vec::with_capacity(n);
    for _ in 0..n {
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
    scanner.expect_end()?;
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let table = grundy_by_mex(&moves, largest);
    let xor = heaps.iter().fold(0, |acc, &h| acc ^ table[h]);
    out.extend_from_slice(if xor != 0 { b"Yes\n" } else { b"No\n" });
    Ok(())
}

/// g(0..=upto): the mex of the values one legal take away.
pub(super) fn grundy_by_mex(moves: &[u64], upto: usize) -> Vec<u32> {
    let mut table: Vec<u32> = Vec::with_capacity(upto + 1);
    for x in 0..=upto {
        let options = moves
            .iter()
            .filter(|&&s| s as usize <= x)
            .map(|&s| table[x - s as usize]);
        let value = sg::mex(options.collect::<Vec<u32>>());
        table.push(value);
    }
    table
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
    fn refuses_heaps_beyond_its_reach() {
        let err = solve(b"1\n1\n2\n5 1000000000000\n", &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (4, 3));
        assert!(err.message.contains("beyond the brute force"), "{err}");
    }
}
