//! The game families `grundy sg` explores, and what is proven about each: the runner's one door to
//! the problem modules' closed forms and rules-only tables.
//!
//! Everything here calls code that already exists: the brute forces' explicit-mex tables, the
//! solvers' closed forms, and the Sprague-Grundy core (`sg::subtraction_table`,
//! `sg::subtraction_period`). Nothing is solved a second time, so what `grundy sg --check`
//! compares is exactly what the solvers and brute forces use.
//!
//! Not for reading inputs, judging or printing: the problems and the runner do that.

use crate::sg;
use crate::{lieges_of_legendre, nim, powers_of_two};

pub use crate::sg::Periodic;
pub use crate::support::PERIOD_SEARCH_LIMIT;

/// Where the period of a subtraction game is proven exact and minimal.
pub const PERIOD_PROOF: &str = "problems/sg.rs, subtraction_period";

/// The largest `upto` the tables of most families are meant for: 2^20 values, 4 bytes each, in
/// linear time.
pub const TABLE_LIMIT: usize = 1 << 20;

/// Nim's rules-only table is quadratic (every smaller heap is an option), so it stops earlier.
pub const NIM_TABLE_LIMIT: usize = 1 << 14;

/// A family of one-heap games: a position is a number x of items, and g(x) its Grundy value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// A move takes s items for some s in the set (sorted, distinct, positive): set-nim, s-nim.
    Subtraction(Vec<u64>),
    /// A move takes 1, 2, 4, 8, ... items: powers-of-two.
    PowersOfTwo,
    /// A move removes one item, or splits a pile of 2x (x > 0) into `k` piles of x:
    /// lieges-of-legendre (only the parity of `k` matters).
    Lieges { k: u64 },
    /// A move takes any positive number of items.
    Nim,
}

impl Family {
    /// The subtraction game with these takes, in any order; duplicates and zeros (taking nothing
    /// is not a move) are dropped.
    pub fn subtraction(moves: &[u64]) -> Family {
        let mut moves: Vec<u64> = moves.iter().copied().filter(|&s| s > 0).collect();
        moves.sort_unstable();
        moves.dedup();
        Family::Subtraction(moves)
    }

    /// The family in words, e.g. `subtraction game S = {1, 3, 4}`.
    pub fn describe(&self) -> String {
        match self {
            Family::Subtraction(moves) => {
                let list: Vec<String> = moves.iter().map(u64::to_string).collect();
                format!("subtraction game S = {{{}}}", list.join(", "))
            }
            Family::PowersOfTwo => "powers of two (a move takes 1, 2, 4, 8, ... items)".into(),
            Family::Lieges { k } => {
                let parity = if k % 2 == 0 { "even" } else { "odd" };
                format!("Lieges of Legendre with k = {k} ({parity})")
            }
            Family::Nim => "Nim (a move takes any positive number of items)".into(),
        }
    }

    /// The largest `upto` that [`Family::table`] and [`Family::rules_only_table`] are meant for.
    pub fn table_limit(&self) -> usize {
        match self {
            Family::Nim => NIM_TABLE_LIMIT,
            _ => TABLE_LIMIT,
        }
    }

    /// g(0..=upto) from the rules: `sg::subtraction_table` for subtraction games (the table the
    /// solvers use), the problem's brute-force table otherwise. The caller bounds `upto` (see
    /// [`Family::table_limit`]).
    pub fn table(&self, upto: usize) -> Vec<u32> {
        match self {
            Family::Subtraction(moves) => sg::subtraction_table(moves, upto),
            _ => self.rules_only_table(upto),
        }
    }

    /// g(0..=upto) by the problem's brute force: an explicit mex over the real moves, sharing no
    /// shortcut with the closed forms or with the period search. The reference `--check` compares
    /// against.
    pub fn rules_only_table(&self, upto: usize) -> Vec<u32> {
        match self {
            Family::Subtraction(moves) => crate::support::grundy_by_mex(moves, upto),
            Family::PowersOfTwo => widen(powers_of_two::brute::grundy_table(upto)),
            Family::Lieges { k } => {
                let table = lieges_of_legendre::brute::grundy_table(*k, upto)
                    .unwrap_or_else(|e| panic!("no memory for {upto} Grundy values: {e}"));
                widen(table)
            }
            Family::Nim => nim::brute::mex_table(upto),
        }
    }

    /// What is proven about g(x) for every x. For a subtraction game this runs the period search
    /// (up to [`PERIOD_SEARCH_LIMIT`] values, about 40 bytes each).
    pub fn law(&self) -> Law {
        match self {
            Family::Subtraction(moves) => {
                match sg::subtraction_period(moves, PERIOD_SEARCH_LIMIT) {
                    Some(periodic) => Law::Period(periodic),
                    None => Law::NoPeriodInReach,
                }
            }
            Family::PowersOfTwo => Law::ClosedForm(ClosedForm::ModThree),
            Family::Lieges { k } => Law::ClosedForm(ClosedForm::Lieges { k: *k }),
            Family::Nim => Law::ClosedForm(ClosedForm::Identity),
        }
    }
}

fn widen(table: Vec<u8>) -> Vec<u32> {
    table.into_iter().map(u32::from).collect()
}

/// What is known about g for every x, with its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Law {
    /// A subtraction game's exact preperiod and period, found by `sg::subtraction_period` and
    /// proven by the window argument (see [`PERIOD_PROOF`]).
    Period(Periodic),
    /// A subtraction game whose values do not repeat within [`PERIOD_SEARCH_LIMIT`] values
    /// (preperiod + period + largest move): nothing is proven beyond the direct table.
    NoPeriodInReach,
    /// A closed form proven in the problem's module documentation.
    ClosedForm(ClosedForm),
}

impl Law {
    /// g(x) for any x, or `None` when nothing is proven ([`Law::NoPeriodInReach`]).
    pub fn at(&self, x: u64) -> Option<u64> {
        match self {
            Law::Period(periodic) => Some(u64::from(periodic.at(x))),
            Law::NoPeriodInReach => None,
            Law::ClosedForm(form) => Some(form.at(x)),
        }
    }
}

/// The proven closed forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClosedForm {
    /// Nim: g(x) = x.
    Identity,
    /// powers-of-two: g(x) = x mod 3.
    ModThree,
    /// lieges-of-legendre, by the parity of `k`.
    Lieges { k: u64 },
}

impl ClosedForm {
    /// g(x), for any x.
    pub fn at(&self, x: u64) -> u64 {
        match self {
            ClosedForm::Identity => x,
            ClosedForm::ModThree => u64::from(powers_of_two::solver::grundy(x)),
            ClosedForm::Lieges { k } => u64::from(lieges_of_legendre::solver::grundy(x, *k)),
        }
    }

    /// A short name: the formula when it is short.
    pub fn name(&self) -> &'static str {
        match self {
            ClosedForm::Identity => "g(x) = x",
            ClosedForm::ModThree => "g(x) = x mod 3",
            ClosedForm::Lieges { k } if k % 2 == 0 => "the closed form for even k",
            ClosedForm::Lieges { .. } => "the closed form for odd k",
        }
    }

    /// The form in words.
    pub fn formula(&self) -> &'static str {
        match self {
            ClosedForm::Identity => "g(x) = x",
            ClosedForm::ModThree => "g(x) = x mod 3",
            ClosedForm::Lieges { k } if k % 2 == 0 => {
                "g(0), g(1), g(2) = 0, 1, 2; for x >= 3, g(x) = 1 if x is even, else 0"
            }
            ClosedForm::Lieges { .. } => {
                "g(0..=4) = 0, 1, 0, 1, 2; odd x >= 5: g(x) = 0; even x >= 6: g(x) = 2 if \
                 g(x/2) = 1, else 1"
            }
        }
    }

    /// Where the proof is written, and its idea in a few words.
    pub fn proof(&self) -> &'static str {
        match self {
            ClosedForm::Identity => {
                "problems/nim/mod.rs: the options of a heap of x are exactly the heaps 0..x, so \
                 the mex is x"
            }
            ClosedForm::ModThree => {
                "problems/powers_of_two/mod.rs: 2^j mod 3 is never 0, so every move changes \
                 x mod 3, and taking 1 or 2 reaches both other residues"
            }
            ClosedForm::Lieges { k } if k % 2 == 0 => {
                "problems/lieges_of_legendre/mod.rs: for even k a split is worth 0 (the k equal \
                 piles cancel in pairs); induction on x"
            }
            ClosedForm::Lieges { .. } => {
                "problems/lieges_of_legendre/mod.rs: for odd k a split of 2x is worth g(x); \
                 induction on x"
            }
        }
    }
}

/// A pattern seen in a table: a guess about the values beyond it, not a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observed {
    /// g(x) = x for every x of the table.
    Identity,
    /// g(x + period) = g(x) for every x >= preperiod of the table (the smallest such period, and
    /// the smallest preperiod for it), the repeating part seen at least twice and covering at
    /// least half of the table (so a coincidence near the end is not taken for a pattern).
    Periodic { preperiod: usize, period: usize },
    /// Neither of those.
    Nothing,
}

/// The pattern `table` shows, judged from its values alone.
pub fn observe(table: &[u32]) -> Observed {
    if table.len() >= 2 && table.iter().enumerate().all(|(x, &g)| g as usize == x) {
        return Observed::Identity;
    }
    let len = table.len();
    (1..=len / 2)
        .find_map(|period| {
            let preperiod = crate::support::agreeing_tail_start(table, period);
            let seen = len - preperiod;
            (seen >= 2 * period && seen >= len - len / 2)
                .then_some(Observed::Periodic { preperiod, period })
        })
        .unwrap_or(Observed::Nothing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_table_and_its_proven_period() {
        let family = Family::subtraction(&[4, 1, 3, 3, 0]);
        assert_eq!(family, Family::Subtraction(vec![1, 3, 4]));
        assert_eq!(family.describe(), "subtraction game S = {1, 3, 4}");
        assert_eq!(family.table(8), [0, 1, 0, 1, 2, 3, 2, 0, 1]);
        assert_eq!(family.rules_only_table(8), [0, 1, 0, 1, 2, 3, 2, 0, 1]);
        let Law::Period(periodic) = family.law() else {
            panic!("{{1, 3, 4}} has a period");
        };
        assert_eq!((periodic.preperiod, periodic.period), (0, 7));
        assert_eq!(periodic.table, [0, 1, 0, 1, 2, 3, 2]);
        // 10^18 = 1 (mod 7).
        assert_eq!(family.law().at(1_000_000_000_000_000_000), Some(1));
    }

    #[test]
    fn known_subtraction_periods_hold_far_past_the_period() {
        // By hand: {1} alternates; {2} is 0 0 1 1; {1, 2} is x mod 3; {a, b} with a < b repeats
        // every a + b; {1, 3, 4} every 7.
        let known: &[(&[u64], usize, usize)] = &[
            (&[1], 0, 2),
            (&[2], 0, 4),
            (&[1, 2], 0, 3),
            (&[2, 5], 0, 7),
            (&[3, 7], 0, 10),
            (&[1, 3, 4], 0, 7),
        ];
        for &(moves, preperiod, period) in known {
            let family = Family::subtraction(moves);
            let law = family.law();
            let Law::Period(found) = &law else {
                panic!("{moves:?}: no period");
            };
            assert_eq!(
                (found.preperiod, found.period),
                (preperiod, period),
                "{moves:?}"
            );
            let horizon = 200 * (preperiod + period) + 5000;
            let rules = family.rules_only_table(horizon);
            for (x, &g) in rules.iter().enumerate() {
                assert_eq!(law.at(x as u64), Some(u64::from(g)), "{moves:?}, x = {x}");
            }
        }
        // Sets with a preperiod, checked the same way.
        for moves in [
            &[2u64, 4, 7][..],
            &[3, 5, 8, 13],
            &[4, 9, 14, 20, 21],
            &[6, 7, 15],
        ] {
            let family = Family::subtraction(moves);
            let law = family.law();
            let Law::Period(found) = &law else {
                panic!("{moves:?}: no period");
            };
            let horizon = 20 * (found.preperiod + found.period) + 5000;
            let rules = family.rules_only_table(horizon);
            for (x, &g) in rules.iter().enumerate() {
                assert_eq!(law.at(x as u64), Some(u64::from(g)), "{moves:?}, x = {x}");
            }
        }
    }

    #[test]
    fn the_period_agrees_with_the_rules_for_every_x_below_one_hundred_thousand() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |modulus: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % modulus
        };
        for round in 0..12 {
            let top = if round % 2 == 0 { 10 } else { 50 };
            let moves: Vec<u64> = (0..1 + next(5)).map(|_| 1 + next(top)).collect();
            let family = Family::subtraction(&moves);
            let law = family.law();
            let rules = family.rules_only_table(99_999);
            for (x, &g) in rules.iter().enumerate() {
                assert_eq!(law.at(x as u64), Some(u64::from(g)), "{moves:?}, x = {x}");
            }
        }
    }

    #[test]
    fn lieges_closed_form_matches_the_rules_for_both_parities_of_k() {
        for k in [1, 2, 3, 4, 7, 10, 999_999_999, 1_000_000_000_000_000_000] {
            let family = Family::Lieges { k };
            let law = family.law();
            let rules = family.rules_only_table(200_000);
            for (x, &g) in rules.iter().enumerate() {
                assert_eq!(law.at(x as u64), Some(u64::from(g)), "k = {k}, x = {x}");
            }
        }
        let even = ClosedForm::Lieges { k: 2 };
        let odd = ClosedForm::Lieges { k: 3 };
        assert_ne!(even.formula(), odd.formula());
        assert_eq!(odd.name(), "the closed form for odd k");
        assert!(odd
            .proof()
            .starts_with("problems/lieges_of_legendre/mod.rs"));
    }

    #[test]
    fn powers_of_two_and_nim_closed_forms_match_the_rules() {
        let rules = Family::PowersOfTwo.rules_only_table(100_000);
        let law = Family::PowersOfTwo.law();
        for (x, &g) in rules.iter().enumerate() {
            assert_eq!(law.at(x as u64), Some(u64::from(g)), "x = {x}");
        }
        assert_eq!(law.at(u64::MAX), Some(0));
        let rules = Family::Nim.rules_only_table(3000);
        assert_eq!(observe(&rules), Observed::Identity);
        assert_eq!(Family::Nim.law().at(1 << 62), Some(1 << 62));
    }

    #[test]
    fn observed_patterns() {
        let powers = Family::PowersOfTwo.table(30);
        assert_eq!(
            observe(&powers),
            Observed::Periodic {
                preperiod: 0,
                period: 3
            }
        );
        let even = Family::Lieges { k: 2 }.table(30);
        assert_eq!(
            observe(&even),
            Observed::Periodic {
                preperiod: 3,
                period: 2
            }
        );
        // Odd k follows the halving chain: no period, however far one looks.
        let odd = Family::Lieges { k: 1 }.table(4096);
        assert_eq!(observe(&odd), Observed::Nothing);
        // The repeating part must be seen twice.
        assert_eq!(observe(&[0, 1, 2, 0, 1]), Observed::Nothing);
        assert_eq!(
            observe(&[5, 0, 1, 0, 1]),
            Observed::Periodic {
                preperiod: 1,
                period: 2
            }
        );
        assert_eq!(observe(&[]), Observed::Nothing);
        assert_eq!(observe(&[0]), Observed::Nothing);
    }

    #[test]
    fn a_set_without_a_period_in_reach_proves_nothing() {
        let family = Family::subtraction(&[1, PERIOD_SEARCH_LIMIT as u64]);
        assert_eq!(family.law(), Law::NoPeriodInReach);
        assert_eq!(family.law().at(5), None);
        assert_eq!(family.table(5), [0, 1, 0, 1, 0, 1]);
    }
}
