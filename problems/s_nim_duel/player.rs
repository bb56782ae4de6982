//! The built-in player: it reads the game from the judge, chooses the side that wins (`first`
//! when the XOR of the starting values is not 0), and answers every judge move with a winning
//! move ([`Game::winning_move`]); see the module doc of `s_nim_duel` for why it always has one.

use super::game::{read_move, Game};
use super::validator::parse;
use crate::{Link, PlayError};

pub fn play(judge: &mut dyn Link) -> Result<(), PlayError> {
    let mut shown = judge.read_line().ok_or(PlayError::Silent("game"))?;
    shown.push(b'\n');
    shown.extend(
        judge
            .read_line()
            .ok_or(PlayError::Silent("heaps after S"))?,
    );
    let instance = parse(&shown, false).map_err(|e| PlayError::Unreadable {
        what: "game",
        reason: e.into(),
    })?;
    let mut game = Game::new(instance.moves, instance.heaps);
    let mut my_turn = game.xor() != 0;
    send(judge, if my_turn { "first" } else { "second" })?;
    loop {
        if my_turn {
            // A winning move always exists here against a correct judge; against one that is not,
            // play on legally, and resign only without a legal move.
            match game
                .winning_move()
                .or_else(|| game.legal_moves().first().copied())
            {
                Some((index, take)) => {
                    game.play(index, take);
                    send(judge, &format!("{} {take}", index + 1))?;
                }
                None => return send(judge, "0 0"),
            }
        } else {
            let line = judge.read_line().ok_or(PlayError::Silent("move"))?;
            let (heap, take) = read_move(&line).map_err(|e| PlayError::Unreadable {
                what: "move",
                reason: e.into(),
            })?;
            if (heap, take) == (0, 0) {
                return Ok(());
            }
            let index = game.check(heap, take).map_err(|e| PlayError::Illegal {
                turn: format!("{heap} {take}"),
                reason: e.into(),
            })?;
            game.play(index, take);
        }
        my_turn = !my_turn;
    }
}

fn send(judge: &mut dyn Link, line: &str) -> Result<(), PlayError> {
    if judge.write_line(line.as_bytes()) {
        Ok(())
    } else {
        Err(PlayError::Deaf(line.to_string()))
    }
}
