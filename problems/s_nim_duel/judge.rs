//! The interactive judge. It shows the program S and the heaps, reads the side the program plays,
//! and then alternates: on the program's turn it reads a move and checks it against the rules; on
//! its own turn it plays a winning move when it has one (the XOR of the values is not 0), else a
//! random legal move drawn from the case's seed, and `0 0` when it has none, which ends the game
//! with the program's win. Every game ends: each move shrinks the total of the heaps.
//!
//! It decides from the rules alone and its own table; the answer file (the winning side) is
//! checked against that table, and an unusable input or a wrong answer file is a judge error.

use super::game::{read_move, Game};
use super::validator::parse;
use crate::support::{rng, shown, tokens};
use crate::{Decision, Link};
use rand::RngExt;

/// The seed of the judge's random moves when the input gives none.
pub(super) const DEFAULT_SEED: u64 = 0x5eed_d0e1;

pub fn judge(input: &[u8], answer: &[u8], program: &mut dyn Link) -> Decision {
    let instance = match parse(input, true) {
        Ok(instance) => instance,
        Err(error) => return Decision::JudgeError(format!("the input is malformed: {error}")),
    };
    let mut game = Game::new(instance.moves, instance.heaps);
    let winner = if game.xor() != 0 { "first" } else { "second" };
    let said: Vec<(usize, &[u8])> = tokens(answer).collect();
    if said.len() != 1 || said[0].1 != winner.as_bytes() {
        return Decision::JudgeError(format!(
            "the answer file should hold `{winner}`, the side that wins this game; it holds `{}`",
            shown(answer.trim_ascii())
        ));
    }
    let mut random = rng(instance.seed.unwrap_or(DEFAULT_SEED));
    for line in game.lines() {
        // A program that stopped reading is caught by the read below.
        program.write_line(line.as_bytes());
    }
    let Some(side) = program.read_line() else {
        return Decision::Reject(
            "the program sent no side (it ended, closed its output or ran out of time); \
             expected `first` or `second`"
                .to_string(),
        );
    };
    let mut programs_turn = match tokens(&side).map(|(_, t)| t).collect::<Vec<_>>()[..] {
        [b"first"] => true,
        [b"second"] => false,
        _ => {
            return Decision::Reject(format!(
                "the program's side: expected `first` or `second`, found `{}`",
                shown(&side)
            ))
        }
    };
    let mut number = 0u64;
    loop {
        number += 1;
        if programs_turn {
            let Some(line) = program.read_line() else {
                return Decision::Reject(format!(
                    "move {number}: the program sent no move (it ended, closed its output or ran \
                     out of time); the heaps: {:?}",
                    game.heaps()
                ));
            };
            let (heap, take) = match read_move(&line) {
                Ok(pair) => pair,
                Err(error) => return Decision::Reject(format!("move {number}: {error}")),
            };
            if (heap, take) == (0, 0) {
                let why = if game.legal_moves().is_empty() {
                    ": it has no legal move, so it lost"
                } else {
                    " with legal moves left"
                };
                return Decision::Reject(format!(
                    "move {number}: the program resigned (`0 0`){why}; the heaps: {:?}",
                    game.heaps()
                ));
            }
            match game.check(heap, take) {
                Ok(index) => game.play(index, take),
                Err(error) => {
                    return Decision::Reject(format!(
                        "move {number}: illegal move `{heap} {take}`: {error}; the heaps: {:?}",
                        game.heaps()
                    ))
                }
            }
        } else {
            let legal = game.legal_moves();
            let chosen = game.winning_move().or_else(|| {
                let pick = random.random_range(0..legal.len().max(1) as u64) as usize;
                legal.get(pick).copied()
            });
            let Some((index, take)) = chosen else {
                program.write_line(b"0 0");
                return Decision::Accept;
            };
            game.play(index, take);
            program.write_line(format!("{} {take}", index + 1).as_bytes());
        }
        programs_turn = !programs_turn;
    }
}

#[cfg(test)]
#[path = "judge_tests.rs"]
mod tests;
