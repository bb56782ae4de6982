//! The brute force: g(x) for every x up to the largest pile, each as the mex of the values of the
//! two real moves, combined over the piles by the XOR rule. It knows the rules only, not the
//! pattern, so it checks the solver's theory rather than repeating it.
//!
//! Memory: the table holds one byte per position (every value is below 256: a position has at
//! most two options, so its mex is at most 2), so a pile of `10^9` costs 1 GB; time is one pass
//! over the table, a few nanoseconds per position in a release build (the mex of at most two
//! small values is one bitmask). Generating the expected output of a max-size fixture therefore
//! takes seconds and a machine with well over 1 GB free. If the table cannot be allocated the
//! brute force says so; on a system that overcommits memory the allocation may succeed and the
//! process be killed later.

use super::validator::{read_header, EXTENDED};
use crate::sg;
use crate::InputError;
use std::collections::TryReserveError;

/// The largest pile the brute force tabulates: the original limit on a pile, 1 GB of table.
pub const REACH: u64 = 1_000_000_000;

/// The value of the position a split of `2x` leaves: `k` piles of `x`, each worth `half`. By the
/// XOR rule equal values cancel in pairs, so an even number of copies is worth 0 and an odd number
/// is worth one copy.
fn split_value(half: u8, k: u64) -> u8 {
    if k % 2 == 1 {
        half
    } else {
        0
    }
}

/// g(0..=upto) for splits into `k` piles, by explicit mex over the real options; an error when the
/// table cannot be allocated.
pub fn grundy_table(k: u64, upto: usize) -> Result<Vec<u8>, TryReserveError> {
    let mut table: Vec<u8> = Vec::new();
    table.try_reserve_exact(upto.saturating_add(1))?;
    table.push(0); // no cows: no move
    for x in 1..=upto {
        let remove_one = table[x - 1];
        let split = x.is_multiple_of(2).then(|| split_value(table[x / 2], k));
        // Every value is at most 2 (two options at most), so the options fit a bitmask.
        let options = std::iter::once(remove_one).chain(split);
        let mask = options.fold(0u128, |mask, value| mask | 1 << value);
        table.push(sg::mex_of_mask(mask) as u8);
    }
    Ok(table)
}

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut piles = read_header(input, EXTENDED)?;
    let k = piles.k;
    let mut sizes = Vec::new();
    let mut largest = (0, 0);
    while let Some((size, offset)) = piles.next_pile()? {
        if size > largest.0 {
            largest = (size, offset);
        }
        sizes.push(size);
    }
    let (largest, offset) = largest;
    if largest > REACH {
        return Err(InputError::at(
            input,
            offset,
            format!(
                "pile size {largest} is beyond the brute force's reach: it tabulates every \
                 position up to {REACH}, one byte each"
            ),
        ));
    }
    let table = grundy_table(k, largest as usize).map_err(|e| {
        InputError::at(
            input,
            offset,
            format!("pile size {largest}: no memory for the brute force's table ({e})"),
        )
    })?;
    let total = sg::xor_sum(sizes.iter().map(|&size| u64::from(table[size as usize])));
    out.extend_from_slice(if total != 0 { b"Kevin\n" } else { b"Nicky\n" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{generator, solver};
    use super::*;
    use std::collections::HashMap;

    const ODD_KS: [u64; 5] = [1, 3, 5, 999_999_999, 999_999_999_999_999_999];
    const EVEN_KS: [u64; 5] = [2, 4, 10, 1_000_000_000, 1_000_000_000_000_000_000];

    #[test]
    fn closed_form_matches_the_table_below_2000_for_both_parities() {
        for k in ODD_KS.into_iter().chain(EVEN_KS) {
            let table = grundy_table(k, 1999).unwrap();
            for (x, &g) in table.iter().enumerate() {
                assert_eq!(solver::grundy(x as u64, k), g, "k = {k}, x = {x}");
            }
        }
    }

    #[test]
    fn closed_form_matches_the_table_along_long_halving_chains() {
        let upto = 1 << 20;
        for k in [1, 2] {
            let table = grundy_table(k, upto).unwrap();
            for x in (0..=upto).step_by(1 << 5).chain(upto - 64..=upto) {
                assert_eq!(solver::grundy(x as u64, k), table[x], "k = {k}, x = {x}");
            }
        }
    }

    /// Win or loss for the player to move, by searching the whole game tree of a multiset of piles
    /// (kept sorted), with no Sprague-Grundy theory.
    fn wins(piles: Vec<u32>, k: usize, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        if let Some(&known) = memo.get(&piles) {
            return known;
        }
        let mut result = false;
        for i in 0..piles.len() {
            let mut moves = Vec::new();
            let mut fewer = piles.clone();
            fewer[i] -= 1;
            moves.push(fewer);
            if piles[i].is_multiple_of(2) {
                let mut split = piles.clone();
                split[i] = piles[i] / 2;
                split.extend(std::iter::repeat_n(piles[i] / 2, k - 1));
                moves.push(split);
            }
            for mut next in moves {
                next.retain(|&p| p > 0);
                next.sort_unstable();
                if !wins(next, k, memo) {
                    result = true;
                }
            }
        }
        memo.insert(piles, result);
        result
    }

    #[test]
    fn brute_force_matches_a_full_game_search() {
        for k in 1..=4 {
            let mut memo = HashMap::new();
            let table = grundy_table(k as u64, 12).unwrap();
            for a in 1..=8u32 {
                for b in 0..=a.min(12 - a) {
                    let piles: Vec<u32> = [b, a].into_iter().filter(|&p| p > 0).collect();
                    let g = table[a as usize] ^ table[b as usize];
                    assert_eq!(g != 0, wins(piles, k, &mut memo), "k = {k}, piles {a} {b}");
                }
            }
        }
    }

    #[test]
    fn solver_agrees_on_random_positions() {
        for seed in 0..300 {
            let scale = [3, 10, 100, 5000, 1 << 20][seed as usize % 5];
            let input = generator::generate(seed, scale);
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            solver::solve(&input, &mut fast).unwrap();
            solve(&input, &mut slow).unwrap();
            assert_eq!(fast, slow, "seed {seed}, scale {scale}");
        }
    }

    #[test]
    fn samples() {
        for (input, expected) in [("2 1\n3 4\n", "Kevin\n"), ("1 2\n3\n", "Nicky\n")] {
            let mut out = Vec::new();
            solve(input.as_bytes(), &mut out).unwrap();
            assert_eq!(out, expected.as_bytes());
        }
    }

    #[test]
    fn out_of_reach_is_an_error_not_a_panic() {
        let input = b"3 1\n5 1000000001 7\n";
        let err = solve(input, &mut Vec::new()).unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
        assert!(
            err.message.contains("beyond the brute force's reach"),
            "{err}"
        );
    }
}
