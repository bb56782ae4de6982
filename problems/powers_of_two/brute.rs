//! The brute force: g(x) for every x up to the largest `n`, each as the mex of the g-values of the
//! positions one move away (take any power of two not above x). It knows the rules only, not the
//! pattern, so it checks the solver's theory rather than repeating it.

use super::validator::{for_each_n, EXTENDED_MAX_N};
use crate::sg;
use crate::InputError;

/// The largest `n` the brute force tabulates: one byte per position, so 10 MB, and about
/// `24 * 10^7` table look-ups.
pub const REACH: u64 = 10_000_000;

/// g(0..=upto), by explicit mex over the real moves.
pub fn grundy_table(upto: usize) -> Vec<u8> {
    let mut table: Vec<u8> = Vec::with_capacity(upto + 1);
    for x in 0..=upto {
        let takes = std::iter::successors(Some(1usize), |&p| p.checked_mul(2));
        let options = takes
            .take_while(|&p| p <= x)
            .map(|p| u32::from(table[x - p]));
        // A mex is at most the number of options, and x <= usize::MAX has under 64 of them.
        table.push(sg::mex(options) as u8);
    }
    table
}

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut cards = Vec::new();
    let mut beyond_reach = None;
    for_each_n(input, EXTENDED_MAX_N, |n, offset| {
        if n > REACH && beyond_reach.is_none() {
            beyond_reach = Some((n, offset));
        }
        cards.push(n);
    })?;
    if let Some((n, offset)) = beyond_reach {
        return Err(InputError::at(
            input,
            offset,
            format!(
                "n {n} is beyond the brute force's reach: it tabulates every position up to \
                 {REACH}"
            ),
        ));
    }
    let largest = cards.iter().copied().max().unwrap_or(0) as usize;
    let table = grundy_table(largest);
    for n in cards {
        let g = table[n as usize];
        out.extend_from_slice(if g == 0 { b"Cici\n" } else { b"Kiki\n" });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::solver;
    use super::*;

    /// Win or loss for the player to move, straight from the rules: a position is a win when some
    /// move reaches a loss. No Sprague-Grundy theory at all.
    fn wins(upto: usize) -> Vec<bool> {
        let mut wins = vec![false; upto + 1];
        for x in 1..=upto {
            let mut p = 1;
            while p <= x {
                if !wins[x - p] {
                    wins[x] = true;
                }
                p *= 2;
            }
        }
        wins
    }

    #[test]
    fn table_matches_a_plain_game_search() {
        let table = grundy_table(3000);
        for (x, win) in wins(3000).into_iter().enumerate() {
            assert_eq!(table[x] != 0, win, "x = {x}");
        }
        assert_eq!(&table[..9], [0, 1, 2, 0, 1, 2, 0, 1, 2]);
    }

    #[test]
    fn solver_agrees_for_every_n_up_to_5000() {
        let input: String = (1..=5000).map(|n| format!("{n}\n")).collect();
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        solver::solve(input.as_bytes(), &mut fast).unwrap();
        solve(input.as_bytes(), &mut slow).unwrap();
        let table = grundy_table(5000);
        for (n, (f, s)) in fast
            .split(|&b| b == b'\n')
            .zip(slow.split(|&b| b == b'\n'))
            .enumerate()
        {
            assert_eq!(f, s, "n = {}, g = {}", n + 1, table[n + 1]);
        }
        assert_eq!(fast, slow);
    }

    #[test]
    fn sample() {
        let mut out = Vec::new();
        solve(b"1\n3\n", &mut out).unwrap();
        assert_eq!(out, b"Kiki\nCici\n");
    }

    #[test]
    fn out_of_reach_is_an_error_not_a_panic() {
        let mut out = Vec::new();
        let err = solve(b"5\n 10000001\n", &mut out).unwrap_err();
        assert_eq!((err.line, err.column), (2, 2));
        assert!(
            err.message.contains("beyond the brute force's reach"),
            "{err}"
        );
        assert!(out.is_empty());
    }
}
