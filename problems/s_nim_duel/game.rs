//! A game in progress, as the judge and the built-in player both track it: S, the heaps now, and
//! g of every heap size up to the largest starting heap (heaps only shrink). Also the reading of
//! a move line, the same on both sides.

use crate::sg;
use crate::support::{join, shown, tokens, winning_move};

pub(super) struct Game {
    moves: Vec<u64>,
    heaps: Vec<u64>,
    table: Vec<u32>,
}

impl Game {
    pub fn new(moves: Vec<u64>, heaps: Vec<u64>) -> Self {
        let largest = heaps.iter().copied().max().unwrap_or(0);
        let table = sg::subtraction_table(&moves, largest as usize);
        Game {
            moves,
            heaps,
            table,
        }
    }

    /// The two lines that show the game: `k s_1 ... s_k` and `l h_1 ... h_l`.
    pub fn lines(&self) -> [String; 2] {
        [
            format!("{} {}", self.moves.len(), join(&self.moves)),
            format!("{} {}", self.heaps.len(), join(&self.heaps)),
        ]
    }

    /// The XOR of the heaps' Grundy values: 0 exactly when the player to move loses.
    pub fn xor(&self) -> u32 {
        self.heaps
            .iter()
            .fold(0, |acc, &h| acc ^ self.table[h as usize])
    }

    /// A move `(heap index, take)` to XOR 0, when the player to move stands on a win.
    pub fn winning_move(&self) -> Option<(usize, u64)> {
        winning_move(&self.table, &self.moves, &self.heaps)
    }

    /// Every legal move, heap by heap, takes in S's order.
    pub fn legal_moves(&self) -> Vec<(usize, u64)> {
        let mut legal = Vec::new();
        for (index, &heap) in self.heaps.iter().enumerate() {
            legal.extend(
                self.moves
                    .iter()
                    .filter(|&&s| s <= heap)
                    .map(|&s| (index, s)),
            );
        }
        legal
    }

    /// The heap index of the move `heap take` (heap numbered from 1), if it is legal; else why not.
    pub fn check(&self, heap: u64, take: u64) -> Result<usize, String> {
        let index = heap
            .checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < self.heaps.len())
            .ok_or_else(|| format!("there is no heap {heap} (heaps 1 to {})", self.heaps.len()))?;
        if !self.moves.contains(&take) {
            return Err(format!(
                "{take} is not an allowed take (S = {{{}}})",
                join(&self.moves)
            ));
        }
        if take > self.heaps[index] {
            return Err(format!(
                "heap {heap} holds only {}, fewer than {take}",
                self.heaps[index]
            ));
        }
        Ok(index)
    }

    /// Plays a move that [`Game::check`] accepted.
    pub fn play(&mut self, index: usize, take: u64) {
        self.heaps[index] -= take;
    }

    pub fn heaps(&self) -> &[u64] {
        &self.heaps
    }
}

/// A move line: two non-negative integers `i s` (`0 0` included), any spaces around them.
pub(super) fn read_move(line: &[u8]) -> Result<(u64, u64), String> {
    let found: Vec<(usize, &[u8])> = tokens(line).take(3).collect();
    let number = |token: &[u8]| {
        std::str::from_utf8(token)
            .ok()
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u64>().ok())
    };
    match found.as_slice() {
        [(_, heap), (_, take)] => match (number(heap), number(take)) {
            (Some(heap), Some(take)) => Ok((heap, take)),
            _ => Err(format!(
                "expected a move `i s` (two integers), found `{}`",
                shown(line)
            )),
        },
        _ => Err(format!(
            "expected a move `i s` (two integers), found `{}`",
            shown(line)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legality_and_move_lines() {
        let game = Game::new(vec![2, 5], vec![2, 4, 7]);
        assert_eq!(game.lines(), ["2 2 5", "3 2 4 7"]);
        assert_eq!(game.xor(), 1);
        assert_eq!(game.check(1, 2), Ok(0));
        assert_eq!(game.check(3, 5), Ok(2));
        assert_eq!(
            game.check(0, 2).unwrap_err(),
            "there is no heap 0 (heaps 1 to 3)"
        );
        assert_eq!(
            game.check(4, 2).unwrap_err(),
            "there is no heap 4 (heaps 1 to 3)"
        );
        assert_eq!(
            game.check(1, 3).unwrap_err(),
            "3 is not an allowed take (S = {2 5})"
        );
        assert_eq!(
            game.check(1, 5).unwrap_err(),
            "heap 1 holds only 2, fewer than 5"
        );
        assert_eq!(game.legal_moves(), [(0, 2), (1, 2), (2, 2), (2, 5)]);
        assert_eq!(read_move(b" 3  5 "), Ok((3, 5)));
        assert_eq!(read_move(b"0 0"), Ok((0, 0)));
        for bad in [
            &b""[..],
            b"1",
            b"1 2 3",
            b"1 x",
            b"-1 2",
            b"\xff 1",
            b"99999999999999999999 1",
        ] {
            assert!(
                read_move(bad).unwrap_err().starts_with("expected a move"),
                "{bad:?}"
            );
        }
    }
}
