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
    pub fn check(&self, heap: u64, take: u64) -> Result<usize, IllegalMove> {
        let index = heap
            .checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < self.heaps.len())
            .ok_or(IllegalMove::NoHeap {
                heap,
                heaps: self.heaps.len(),
            })?;
        if !self.moves.contains(&take) {
            return Err(IllegalMove::NotATake {
                take,
                moves: join(&self.moves),
            });
        }
        if take > self.heaps[index] {
            return Err(IllegalMove::TooFew {
                heap,
                holds: self.heaps[index],
                take,
            });
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

/// Why a move breaks the rules of the game in progress.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum IllegalMove {
    #[error("there is no heap {heap} (heaps 1 to {heaps})")]
    NoHeap { heap: u64, heaps: usize },
    /// `moves`: S, as the game shows it.
    #[error("{take} is not an allowed take (S = {{{moves}}})")]
    NotATake { take: u64, moves: String },
    #[error("heap {heap} holds only {holds}, fewer than {take}")]
    TooFew { heap: u64, holds: u64, take: u64 },
}

/// A line that is no move `i s`; it holds the line as shown in messages (cut, lossy).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a move `i s` (two integers), found `{0}`")]
pub(super) struct NotAMove(String);

/// A move line: two non-negative integers `i s` (`0 0` included), any spaces around them.
pub(super) fn read_move(line: &[u8]) -> Result<(u64, u64), NotAMove> {
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
            _ => Err(NotAMove(shown(line))),
        },
        _ => Err(NotAMove(shown(line))),
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
            game.check(0, 2).unwrap_err().to_string(),
            "there is no heap 0 (heaps 1 to 3)"
        );
        assert_eq!(
            game.check(4, 2),
            Err(IllegalMove::NoHeap { heap: 4, heaps: 3 })
        );
        assert_eq!(
            game.check(1, 3).unwrap_err().to_string(),
            "3 is not an allowed take (S = {2 5})"
        );
        assert_eq!(
            game.check(1, 5).unwrap_err().to_string(),
            "heap 1 holds only 2, fewer than 5"
        );
        assert_eq!(game.legal_moves(), [(0, 2), (1, 2), (2, 2), (2, 5)]);
        assert_eq!(read_move(b" 3  5 "), Ok((3, 5)));
        assert_eq!(read_move(b"0 0"), Ok((0, 0)));
        assert_eq!(read_move(b"1 x"), Err(NotAMove("1 x".into())));
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
                read_move(bad)
                    .unwrap_err()
                    .to_string()
                    .starts_with("expected a move"),
                "{bad:?}"
            );
        }
    }
}
