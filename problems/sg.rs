//! The Sprague-Grundy core the solvers share.
//!
//! Sprague-Grundy theorem: every finite impartial game under normal play is equivalent to a Nim heap
//! of size g(position), where g is the mex (minimum excluded value) of the g-values of the positions
//! one move away; a sum of independent games has g equal to the XOR of the parts' g-values, and the
//! player to move loses exactly when g = 0.

/// The smallest value not in `values`. General path, for option sets of any size.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen = Vec::new();
    for v in values {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

/// The mex of a set of values below 128 given as a bitmask: the number of trailing ones.
pub fn mex_of_mask(mask: u128) -> u32 {
    mask.trailing_ones()
}

/// The XOR of the parts' g-values: the g-value of their sum.
pub fn xor_sum(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0, |acc, g| acc ^ g)
}

/// g(0..=upto) for the subtraction game where a move removes `s` items for some `s` in `moves`
/// (duplicates allowed, any order, zeros ignored).
///
/// A position has at most `moves.len()` options, so g(x) <= moves.len(); below 128 distinct moves
/// the options fit one `u128` mask and the mex is a single instruction. Larger sets take the
/// general path.
pub fn subtraction_table(moves: &[u64], upto: usize) -> Vec<u32> {
    let mut moves: Vec<usize> = moves
        .iter()
        .filter(|&&s| s > 0)
        .map(|&s| usize::try_from(s).unwrap_or(usize::MAX))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    let mut table = vec![0u32; upto + 1];
    if moves.len() < 128 {
        for x in 1..=upto {
            let mut mask = 0u128;
            for &s in moves.iter().take_while(|&&s| s <= x) {
                mask |= 1u128 << table[x - s];
            }
            table[x] = mex_of_mask(mask);
        }
    } else {
        let mut seen = vec![false; moves.len() + 2];
        for x in 1..=upto {
            seen.iter_mut().for_each(|s| *s = false);
            for &s in moves.iter().take_while(|&&s| s <= x) {
                seen[table[x - s] as usize] = true;
            }
            table[x] = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32;
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_finds_the_first_gap() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([2, 0, 1]), 3);
        assert_eq!(mex_of_mask(0), 0);
        assert_eq!(mex_of_mask(0b1011), 2);
        assert_eq!(mex_of_mask(u128::MAX), 128);
    }

    #[test]
    fn seed_table_for_one_three_four() {
        // The table printed in the seed 001 article.
        let table = subtraction_table(&[1, 3, 4], 8);
        assert_eq!(table, [0, 1, 0, 1, 2, 3, 2, 0, 1]);
    }

    #[test]
    fn mask_path_and_general_path_agree() {
        // 130 distinct moves take the general path; the same game computed by the plain
        // definition must match.
        let moves: Vec<u64> = (1..=130).map(|i| i * 3 - (i % 2)).collect();
        let table = subtraction_table(&moves, 2000);
        for x in 0..=2000usize {
            let options = moves
                .iter()
                .filter(|&&s| s as usize <= x)
                .map(|&s| table[x - s as usize]);
            assert_eq!(table[x], mex(options), "x = {x}");
        }
    }

    #[test]
    fn xor_rule_matches_a_full_game_search() {
        // Sums of two subtraction-game heaps: the XOR of g-values decides the winner exactly as an
        // exhaustive search of the sum game does.
        let moves = [1u64, 3, 4];
        let table = subtraction_table(&moves, 30);
        let mut wins = vec![vec![false; 31]; 31];
        for a in 0..=30usize {
            for b in 0..=30usize {
                wins[a][b] = moves.iter().any(|&s| {
                    let s = s as usize;
                    (s <= a && !wins[a - s][b]) || (s <= b && !wins[a][b - s])
                });
            }
        }
        for a in 0..=30 {
            for b in 0..=30 {
                let g = xor_sum([u64::from(table[a]), u64::from(table[b])]);
                assert_eq!(g != 0, wins[a][b], "heaps {a} and {b}");
            }
        }
    }
}
