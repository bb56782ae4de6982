//! Reference answers from the rules alone. g comes from an explicit mex over the takes
//! ([`crate::support::grundy_by_mex`]), and a position is lost exactly when the XOR of its values
//! is 0 (Sprague-Grundy). A position wins when some legal move leaves a lost one: the brute force
//! tries every legal move, heap 1 first and the smallest take first, and prints the first that
//! does; `lose` when none does. It never uses the construction the solver relies on (the heap
//! with the XOR's highest bit), so its move is found independently, and is often another one.

use super::validator::{parse, Repeats};
use crate::support::grundy_by_mex;
use crate::InputError;
use std::io::Write;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let instance = parse(input, Repeats::Allowed)?;
    let largest = instance.positions.iter().flatten().copied().max();
    let table = grundy_by_mex(&instance.moves, largest.unwrap_or(0) as usize);
    let mut takes = instance.moves.clone();
    takes.sort_unstable();
    takes.dedup();
    for heaps in &instance.positions {
        match first_winning_move(&table, &takes, heaps) {
            Some((heap, take)) => writeln!(out, "{} {take}", heap + 1),
            None => writeln!(out, "lose"),
        }
        .expect("writing to a Vec cannot fail");
    }
    Ok(())
}

/// The first legal move, in the order heap then take, that leaves a position of XOR 0.
pub(super) fn first_winning_move(
    table: &[u32],
    takes: &[u64],
    heaps: &[u64],
) -> Option<(usize, u64)> {
    let value = |heap: u64| table[heap as usize];
    let xor = heaps.iter().fold(0, |acc, &h| acc ^ value(h));
    heaps.iter().enumerate().find_map(|(index, &heap)| {
        takes
            .iter()
            .take_while(|&&s| s <= heap)
            .find(|&&s| xor ^ value(heap) ^ value(heap - s) == 0)
            .map(|&s| (index, s))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> String {
        crate::test_support::run_to_string(solve, input).unwrap()
    }

    #[test]
    fn sample_by_hand() {
        // `2 3 7 12` (values 1 1 0 2, XOR 2): heaps 1 and 2 have no winning take; heap 3 (7)
        // goes to 5 (value 2), which cancels: the first winning move is `3 2`, not the solver's.
        assert_eq!(
            run("2 5 2\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n"),
            "lose\n1 2\n3 2\n"
        );
    }

    #[test]
    fn wins_and_losses_match_a_search_of_the_game_tree() {
        // Up to three heaps of at most 12: a position wins when a take reaches a losing one.
        for moves in [
            &[2u64, 5][..],
            &[1, 3, 4],
            &[4, 7],
            &[3],
            &[1, 2, 3, 4, 5, 6],
        ] {
            let table = grundy_by_mex(moves, 12);
            let wins = crate::test_support::wins_by_search(moves, 12);
            let lost = |h: [usize; 3]| !wins[h[0]][h[1]][h[2]];
            for a in 0..=12 {
                for b in 0..=12 {
                    for c in 0..=12 {
                        let heaps = [a as u64, b as u64, c as u64];
                        let found = first_winning_move(&table, moves, &heaps);
                        assert_eq!(found.is_some(), !lost([a, b, c]), "{moves:?}: {heaps:?}");
                        if let Some((i, s)) = found {
                            let mut after = [a, b, c];
                            after[i] -= s as usize;
                            assert!(lost(after), "{moves:?}: {heaps:?}");
                        }
                    }
                }
            }
        }
    }
}
