//! S-Nim, play a winning move: one set S of allowed takes and several positions; for each, answer
//! `lose` when the player to move loses, else a move `i s` (take `s` in S from heap `i`) that
//! leaves the opponent a losing position. Many answers are right, so the problem has a checker
//! ([`checker::check`]) and `solve` and `brute` each print one right answer.
//!
//! Why a winning move always exists from a position with XOR x != 0, and how the solver finds one
//! (the constructive half of the XOR rule). Write g_i for the Grundy value of heap i, so
//! x = g_1 XOR ... XOR g_l.
//!
//! 1. Some heap has g_i XOR x < g_i. Let b be the highest set bit of x. An odd number of the g_i
//!    have bit b set (x is their XOR), so at least one does; for that heap, g_i XOR x clears bit b
//!    of g_i and changes only lower bits, so it is smaller than g_i.
//! 2. That heap has a move to a heap of value exactly t = g_i XOR x. By definition
//!    g_i = mex{ g(h_i - s) : s in S, s <= h_i }: every value below the mex is taken by some
//!    option, and t < g_i, so some legal take s reaches a heap of value t.
//! 3. After that move the XOR is x XOR g_i XOR t = x XOR x = 0, and a position of XOR 0 loses
//!    (Sprague-Grundy: a sum of games is worth the XOR of its parts, and a game of value 0 is lost
//!    by the player to move). So the move wins.
//!
//! Conversely, from XOR 0 every move changes exactly one g_i to another value (a heap never
//! reaches a heap of its own value, by the mex), so it leaves a non-zero XOR: `lose` is right.
//!
//! The solver takes the first heap with bit b set and the first take in input order that reaches
//! t. The brute force does not use the construction: it tries every legal move, lowest heap first
//! and smallest take first, and keeps the first that leaves a losing position. The checker
//! accepts any move that leaves a losing position, judged by its own table.

mod brute;
mod checker;
mod generator;
mod shrink;
mod solver;
mod validator;

use crate::Problem;

pub static PROBLEM: Problem = Problem {
    id: "s-nim-move",
    title: "S-Nim: play a winning move",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: Some(checker::check),
    interact: None,
};
