//! The Sprague-Grundy explorer behind `grundy sg GAME`: g(x) for x = 0..=N of a game family
//! with what is proven about it (a subtraction game's exact period, or the closed form proven in
//! the problem's module docs) and what is merely observed in the table ([`departure`]: where the
//! proven law leaves an observed pattern); g(X) through the proven law ([`evaluate`]); the law
//! against the rules-only table ([`check`]).
//!
//! The games are the problems crate's (`grundy_problems::families`): this module computes,
//! [`render`] turns the result into text, and `commands::sg` reads the flags and picks what to
//! compute. Memory stays bounded: `--upto` is capped (2^20 values, 2^14 for Nim), and a
//! subtraction game's period search looks at no more than `PERIOD_SEARCH_LIMIT` = 2^20 values
//! (about 40 MB).

pub mod render;

use anyhow::{bail, Result};
use grundy_problems::families::{Family, Law, Observed, PERIOD_SEARCH_LIMIT};

/// Everything one run computed, for the renderers.
pub struct Outcome {
    /// The subcommand name: `subtract`, `powers-of-two`, `lieges`, `nim`.
    pub game: &'static str,
    pub family: Family,
    /// The table covers, and `--check` compares, x = 0..=upto.
    pub upto: u64,
    pub law: Law,
    /// g(0..=upto), when the table is shown (neither `--at` nor `--check`).
    pub table: Option<Vec<u32>>,
    /// The pattern in the table, when nothing better is proven (every family but a subtraction
    /// game with a period).
    pub observed: Option<Observed>,
    /// Where the proven closed form first breaks the observed pattern, within
    /// [`DEPARTURE_HORIZON`] values past the table.
    pub departure: Option<Departure>,
    pub at: Vec<Evaluation>,
    pub check: Option<Check>,
}

/// g(x) for one `--at x`, and where it came from.
pub struct Evaluation {
    pub x: u64,
    pub g: u64,
    pub via: Via,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// The proven period of a subtraction game.
    Period,
    /// A proven closed form.
    ClosedForm,
    /// The direct table (a subtraction game with no period in reach, x within the cap).
    Table,
}

/// The first x past the table where the proven closed form and the observed pattern differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    pub x: u64,
    /// What the pattern predicts.
    pub pattern: u64,
    /// What the closed form says.
    pub law: u64,
}

/// How many values past the table an observed pattern is compared with a proven closed form.
pub const DEPARTURE_HORIZON: u64 = 1 << 20;

/// The result of `--check`: the law against the rules-only table for x = 0..=upto.
pub struct Check {
    pub upto: u64,
    pub mismatch: Option<Mismatch>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub x: u64,
    /// What the period or closed form says.
    pub law: u64,
    /// What the rules-only table says.
    pub rules: u64,
}

/// Where the proven closed form first differs from what `observed` predicts past `table`, if it
/// does within [`DEPARTURE_HORIZON`] values: an observed pattern is a guess, and this shows a wrong
/// guess for what it is.
pub fn departure(observed: Observed, table: &[u32], law: &Law) -> Option<Departure> {
    let Law::ClosedForm(form) = law else {
        return None;
    };
    let predict = |x: u64| match observed {
        Observed::Identity => Some(x),
        Observed::Periodic { preperiod, period } => {
            let (pre, period) = (preperiod as u64, period as u64);
            Some(u64::from(table[(pre + (x - pre) % period) as usize]))
        }
        Observed::Nothing => None,
    };
    let end = table.len() as u64;
    (end..end + DEPARTURE_HORIZON).find_map(|x| {
        let (pattern, law) = (predict(x)?, form.at(x));
        (pattern != law).then_some(Departure { x, pattern, law })
    })
}

/// g(x) for each `--at x`: through the law, or the direct table when nothing is proven and x is
/// within the table's cap.
pub fn evaluate(family: &Family, law: &Law, xs: &[u64]) -> Result<Vec<Evaluation>> {
    let via = match law {
        Law::Period(_) => Via::Period,
        Law::ClosedForm(_) => Via::ClosedForm,
        Law::NoPeriodInReach => Via::Table,
    };
    if via != Via::Table {
        let values = xs.iter().map(|&x| {
            let g = law.at(x).expect("a proven law answers every x");
            Evaluation { x, g, via }
        });
        return Ok(values.collect());
    }
    let limit = family.table_limit() as u64;
    if let Some(&x) = xs.iter().find(|&&x| x > limit) {
        bail!(
            "g({x}) is out of reach: {} shows no period within its first {PERIOD_SEARCH_LIMIT} \
             values (preperiod + period + largest take must fit), so nothing is proven beyond \
             the direct table, which stops at x = {limit}",
            family.describe()
        );
    }
    let largest = xs.iter().copied().max().unwrap_or(0);
    let table = family.table(largest as usize);
    Ok(xs
        .iter()
        .map(|&x| Evaluation {
            x,
            g: u64::from(table[x as usize]),
            via,
        })
        .collect())
}

/// The law against the rules-only table for x = 0..=upto.
pub fn check(family: &Family, law: &Law, upto: u64) -> Result<Check> {
    if *law == Law::NoPeriodInReach {
        bail!(
            "nothing to check: {} shows no period within its first {PERIOD_SEARCH_LIMIT} values, \
             so no law is proven",
            family.describe()
        );
    }
    let rules = family.rules_only_table(upto as usize);
    let by_law = |x: u64| law.at(x).expect("a proven law answers every x");
    Ok(Check {
        upto,
        mismatch: first_mismatch(by_law, &rules),
    })
}

/// The first x where `by_law(x)` differs from `rules[x]`.
fn first_mismatch(by_law: impl Fn(u64) -> u64, rules: &[u32]) -> Option<Mismatch> {
    rules.iter().enumerate().find_map(|(x, &rules)| {
        let (x, rules) = (x as u64, u64::from(rules));
        let law = by_law(x);
        (law != rules).then_some(Mismatch { x, law, rules })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_problems::families::observe;

    #[test]
    fn the_first_mismatch_is_found_and_agreement_is_none() {
        let rules = [0, 1, 0, 1, 2, 3, 2, 0, 1];
        let seed = [0u64, 1, 0, 1, 2, 3, 2];
        assert_eq!(first_mismatch(|x| seed[(x % 7) as usize], &rules), None);
        assert_eq!(
            first_mismatch(|x| x % 3, &rules),
            Some(Mismatch {
                x: 2,
                law: 2,
                rules: 0
            })
        );
        assert_eq!(first_mismatch(|x| x, &[]), None);
    }

    #[test]
    fn a_wrong_guess_is_caught_by_the_closed_form_and_a_right_one_is_not() {
        let odd = Family::Lieges { k: 1 };
        let table = odd.table(100);
        let observed = observe(&table);
        assert!(
            matches!(observed, Observed::Periodic { .. }),
            "{observed:?}"
        );
        let found = departure(observed, &table, &odd.law()).unwrap();
        assert!(found.x > 100);
        assert_eq!(odd.law().at(found.x), Some(found.law));
        let powers = Family::PowersOfTwo.table(30);
        let law = Family::PowersOfTwo.law();
        assert_eq!(departure(observe(&powers), &powers, &law), None);
        let nim = Family::Nim.table(30);
        assert_eq!(departure(observe(&nim), &nim, &Family::Nim.law()), None);
    }

    #[test]
    fn at_uses_the_table_only_within_its_cap_when_nothing_is_proven() {
        let family = Family::subtraction(&[1, PERIOD_SEARCH_LIMIT as u64]);
        let law = family.law();
        let values = evaluate(&family, &law, &[3, 10]).unwrap();
        assert_eq!(
            values.iter().map(|e| (e.g, e.via)).collect::<Vec<_>>(),
            [(1, Via::Table), (0, Via::Table)]
        );
        let far = evaluate(&family, &law, &[1 << 40])
            .err()
            .unwrap()
            .to_string();
        assert!(far.contains("out of reach"), "{far}");
        let nothing = check(&family, &law, 10).err().unwrap().to_string();
        assert!(nothing.contains("nothing to check"), "{nothing}");
    }
}
