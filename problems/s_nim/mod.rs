//! S-Nim (HDU 1536 / POJ 2960): many test cases, each a set S of allowed takes and several
//! positions of heaps; a move removes `s` items from one heap, for some `s` in S no larger than
//! the heap. For each position: is it a win (`W`) or a loss (`L`) for the player to move?
//!
//! Sprague-Grundy: a heap of h is worth g(h) = mex{ g(h - s) : s in S, s <= h } (by induction on
//! h, a heap is equivalent to a Nim heap of g(h)), and a position loses exactly when the XOR of its
//! heaps' g-values is 0 (Nim on those values, by Bouton). S may be unsorted and repeat takes; a
//! repeated take is the same move, so the mex sees the same option twice and nothing changes.
//!
//! Speed: each test case builds one table up to its own largest heap and answers all its
//! positions from it. Huge heaps (extended limits) are answered through the exact period of g
//! (see [`crate::sg::subtraction_period`] for why the first repeated window gives it).

mod brute;
mod generator;
mod shrink;
mod solver;
mod validator;

use crate::Problem;

pub static PROBLEM: Problem = Problem {
    id: "s-nim",
    title: "S-Nim",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: None,
    interact: None,
};
