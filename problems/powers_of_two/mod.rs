//! powers-of-two (HDU 1847, "Good Luck in CET-4 Everybody!"): one pile of `n` cards, a move takes
//! `2^j` cards for some `j >= 0`, whoever takes the last card wins, Kiki moves first.
//!
//! Pattern: Kiki loses exactly when `3` divides `n`; more precisely g(n) = n mod 3.
//!
//! Why: `2^j mod 3` is `1` for even `j` and `2` for odd `j`, never `0`. So from a multiple of 3
//! every move leaves a non-multiple of 3, while from a non-multiple taking 1 card (if n ≡ 1) or 2
//! cards (if n ≡ 2) leaves a multiple. The multiples of 3, `0` included, are therefore exactly the
//! positions where the player to move loses (induction on `n`: the base case `0` has no move).
//! The sharper statement g(n) = n mod 3 follows by induction too: every move changes the residue,
//! so no option has the value `n mod 3`; and taking 1 or 2 cards (when there are that many)
//! reaches both other residues, so every smaller value occurs among the options. The mex is
//! therefore `n mod 3`.
//!
//! The brute force in [`brute`] never uses the pattern: it tabulates g by an explicit mex over every
//! power of two, and the tests compare the two.

pub(crate) mod brute;
mod generator;
mod shrink;
pub(crate) mod solver;
mod validator;

use crate::Problem;

pub static PROBLEM: Problem = Problem {
    id: "powers-of-two",
    title: "Good Luck in CET-4 Everybody!",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: None,
    interact: None,
};
