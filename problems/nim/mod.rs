//! Classic Nim: heaps of items, a move takes any positive number of items from one heap.
//!
//! Bouton's theorem: the player to move loses exactly when the XOR of the heap sizes is 0.
//! Proof sketch, by induction on the total number of items. The empty position has XOR 0 and no
//! move, so it is lost. From XOR 0, any move changes exactly one heap, hence flips at least one
//! bit of the XOR: every move leads to XOR != 0. From XOR s != 0, let d be the highest set bit
//! of s and h a heap with bit d set; then h ^ s < h (bit d goes from 1 to 0, higher bits stay),
//! so reducing h to h ^ s is a move, and it makes the XOR 0. In Sprague-Grundy terms a heap of h
//! has g(h) = h (its options are exactly the heaps 0..h), and the XOR rule does the rest.
//!
//! The format is our own: one position per non-blank line, so lines carry meaning here.

pub(crate) mod brute;
mod generator;
mod shrink;
mod solver;
mod validator;

use crate::Problem;

pub static PROBLEM: Problem = Problem {
    id: "nim",
    title: "Nim",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: None,
    interact: None,
};
