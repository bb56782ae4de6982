//! Set-Nim (AcWing 893): heaps of stones and a set S of allowed takes; a move removes `s` stones
//! from one heap, for some `s` in S no larger than the heap.
//!
//! Sprague-Grundy: one heap of h is a subtraction game with g(h) = mex{ g(h - s) : s in S, s <= h }
//! (by induction on h, a heap is equivalent to a Nim heap of g(h): from it one can reach every
//! smaller Nim value, and never g(h) itself). A sum of heaps is equivalent to Nim on their
//! g-values, so the first player wins exactly when the XOR of the g(h_i) is not 0.
//!
//! Huge heaps (extended limits) are answered through the period of g: with m = max S, g(x + m)
//! depends only on the window g(x..x + m), so the sequence is eventually periodic and the first
//! repeated window gives the exact preperiod and period (see [`crate::sg::subtraction_period`]).

mod brute;
mod generator;
mod shrink;
mod solver;
mod validator;

use crate::Problem;

pub static PROBLEM: Problem = Problem {
    id: "set-nim",
    title: "Set-Nim (集合-Nim游戏)",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: None,
    interact: None,
};
