//! lieges-of-legendre (Codeforces 603C): `n` piles of cows; a move removes one cow from a pile, or
//! replaces a pile of even size `2x` (`x > 0`) by `k` piles of `x` cows. Kevin moves first.
//!
//! Pattern: the piles are independent, so by Sprague-Grundy the position is lost for Kevin exactly
//! when the XOR of the piles' values g(a_i) is zero. The split of `2x` gives `k` equal piles, worth
//! the XOR of `k` copies of g(x): `0` when `k` is even (the copies cancel in pairs), g(x) when `k`
//! is odd. So only the parity of `k` matters, and every g(x) is 0, 1 or 2:
//!
//! * even `k`: g(0), g(1), g(2) = 0, 1, 2; for `x >= 3`, g(x) = 1 if `x` is even, else 0.
//! * odd `k`: g(0..=4) = 0, 1, 0, 1, 2; odd `x >= 5` gives 0; even `x >= 6` gives 2 if
//!   g(x/2) = 1, else 1.
//!
//! Proof, by strong induction on `x` (the small values are mex computations by hand; see
//! `solver.rs` for them written out):
//!
//! * even `k`, odd `x >= 3`: the only move leaves `x - 1`, even, worth 2 (if `x = 3`) or 1 (by
//!   induction): never 0, so g(x) = mex{nonzero} = 0.
//! * even `k`, even `x >= 4`: removing a cow leaves the odd `x - 1 >= 3`, worth 0; splitting is
//!   worth 0 too. So g(x) = mex{0} = 1.
//! * odd `k`, odd `x >= 5`: the only move leaves the even `x - 1 >= 4`, worth 2 (if `x = 5`) or 1
//!   or 2 (by induction): never 0, so g(x) = 0.
//! * odd `k`, even `x >= 6`: removing a cow leaves the odd `x - 1 >= 5`, worth 0; splitting is worth
//!   g(x/2) with `x/2 < x`. mex{0, v} is 2 when v = 1 and 1 when v is 0 or 2.
//!
//! The odd rule looks down the halving chain `x, x/2, x/4, ...` only while the value stays even
//! and at least 6, so the solver evaluates it with one loop of at most 64 steps per pile.
//!
//! The brute force in [`brute`] never uses the pattern: it tabulates g by an explicit mex over the
//! two real moves, and the tests compare the two for every `x < 2000` and several `k` of each
//! parity, and on many random positions.

pub(crate) mod brute;
mod generator;
mod shrink;
pub(crate) mod solver;
mod validator;

use crate::Problem;

pub static PROBLEM: Problem = Problem {
    id: "lieges-of-legendre",
    title: "Lieges of Legendre",
    statement: include_str!("statement.md"),
    solve: solver::solve,
    brute: brute::solve,
    generate: generator::generate,
    validate: validator::validate,
    shrink: shrink::shrink,
    check: None,
    interact: None,
};
