//! S-Nim, the whole game against the judge (interactive): the program is shown S and one
//! position, chooses the side it plays (`first` or `second`), and then the two alternate moves
//! until one side cannot move. The judge ([`judge::judge`]) plays perfectly whenever it stands on
//! a winning position and at random otherwise; the built-in player ([`player::play`]) chooses the
//! winning side and always answers with a winning move.
//!
//! Why the side that wins can always be chosen and held: by Sprague-Grundy a position loses for
//! the player to move exactly when the XOR of its heaps' values is 0. Choose `first` when the
//! starting XOR is not 0, else `second`; then on each of the player's turns the XOR is not 0, and
//! the constructive half of the XOR rule ([`crate::support::winning_move`], proved in
//! `s_nim_move`) gives a move to XOR 0. From XOR 0 every move of the judge leaves a non-zero XOR (a
//! heap never reaches a heap of its own value), so the invariant holds, and since every move
//! shrinks the total, the judge is the one left without a move.
//!
//! `solve` (table + XOR) and `brute` (explicit mex + XOR) print the answer file: the winning side.

mod brute;
mod game;
mod generator;
mod judge;
mod player;
mod shrink;
mod solver;
mod validator;

use crate::{Interaction, Problem};

pub static PROBLEM: Problem = Problem {
    id: "s-nim-duel",
    title: "S-Nim: the duel (interactive)",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: None,
    interact: Some(Interaction {
        judge: judge::judge,
        play: player::play,
    }),
};
