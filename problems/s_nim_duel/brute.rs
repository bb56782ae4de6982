//! The answer file from the rules alone: g by an explicit mex over the takes
//! ([`crate::support::grundy_by_mex`]), the XOR rule for the starting position.

use super::validator::parse;
use crate::support::grundy_by_mex;
use crate::InputError;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let instance = parse(input, false)?;
    let largest = instance.heaps.iter().copied().max().unwrap_or(0);
    let table = grundy_by_mex(&instance.moves, largest as usize);
    let xor = instance
        .heaps
        .iter()
        .fold(0, |acc, &h| acc ^ table[h as usize]);
    out.extend_from_slice(if xor != 0 { b"first\n" } else { b"second\n" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_a_search_of_the_game_tree() {
        for moves in [&[2u64, 5][..], &[1, 3, 4], &[4, 7], &[3]] {
            let wins = crate::test_support::wins_by_search(moves, 12);
            for (a, plane) in wins.iter().enumerate() {
                for (b, row) in plane.iter().enumerate() {
                    for (c, &first) in row.iter().enumerate() {
                        let list: Vec<String> = moves.iter().map(u64::to_string).collect();
                        let input = format!("{} {}\n3 {a} {b} {c}\n", moves.len(), list.join(" "));
                        let mut out = Vec::new();
                        solve(input.as_bytes(), &mut out).unwrap();
                        assert_eq!(out, if first { &b"first\n"[..] } else { b"second\n" });
                    }
                }
            }
        }
    }
}
