//! Shrinking a package's failing case where its generator takes a size: every argument of the
//! generator command that is a plain integer (not the seed) is tried smaller, halved first and
//! then one less, with the same seed, keeping each candidate on which the submission still
//! fails, until no smaller argument fails or the budget is spent.

use anyhow::Result;

/// The most candidate commands tried.
pub const BUDGET: usize = 200;

/// The arguments a size may be: the plain integers among `args` (`{seed}` is none).
pub fn size_positions(args: &[String]) -> Vec<usize> {
    args.iter()
        .enumerate()
        .filter(|(_, arg)| arg.parse::<u64>().is_ok())
        .map(|(index, _)| index)
        .collect()
}

/// Smaller values to try for `value`, in order: its half, then one less.
pub fn smaller(value: u64) -> Vec<u64> {
    match value {
        0 => vec![],
        1 => vec![0],
        _ if value / 2 == value - 1 => vec![value / 2],
        _ => vec![value / 2, value - 1],
    }
}

/// What shrinking kept: the arguments and the failure they give, and how it went.
pub struct Shrunk<T> {
    pub args: Vec<String>,
    pub failure: T,
    pub steps: usize,
    pub attempts: usize,
    /// Stopped by [`BUDGET`]: smaller arguments may still fail.
    pub cut_short: bool,
}

/// Shrinks `args` (on which the case fails with `failure`): `still_fails` runs a candidate and
/// gives its failure, or `None` when it passes (or is no fair case: an invalid input).
pub fn shrink<T, E>(
    args: Vec<String>,
    failure: T,
    budget: usize,
    mut still_fails: impl FnMut(&[String]) -> Result<Option<T>, E>,
) -> Result<Shrunk<T>, E> {
    let mut shrunk = Shrunk {
        args,
        failure,
        steps: 0,
        attempts: 0,
        cut_short: false,
    };
    let positions = size_positions(&shrunk.args);
    'improve: loop {
        for &position in &positions {
            let value: u64 = shrunk.args[position].parse().unwrap_or(0);
            for candidate in smaller(value) {
                if shrunk.attempts == budget {
                    shrunk.cut_short = true;
                    break 'improve;
                }
                shrunk.attempts += 1;
                let mut args = shrunk.args.clone();
                args[position] = candidate.to_string();
                if let Some(failure) = still_fails(&args)? {
                    (shrunk.args, shrunk.failure) = (args, failure);
                    shrunk.steps += 1;
                    continue 'improve;
                }
            }
        }
        break;
    }
    Ok(shrunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn sizes_are_the_plain_integers_other_than_the_seed() {
        assert_eq!(size_positions(&words("{seed} 10 -n 7 x3 {seed:2}")), [1, 3]);
        assert_eq!(smaller(10), [5, 9]);
        assert_eq!(smaller(2), [1]);
        assert_eq!(smaller(1), [0]);
        assert!(smaller(0).is_empty());
    }

    #[test]
    fn the_smallest_failing_size_is_found_by_halving_then_decrementing() {
        // Fails while n >= 13 and m is anything: n goes to 13, m to 0.
        let fails = |args: &[String]| -> Result<Option<u64>> {
            let n: u64 = args[1].parse().unwrap();
            Ok((n >= 13).then_some(n))
        };
        let shrunk = shrink(words("{seed} 100 40"), 100, BUDGET, fails).unwrap();
        assert_eq!(shrunk.args, words("{seed} 13 0"));
        assert_eq!(shrunk.failure, 13);
        assert!(!shrunk.cut_short);
        // 100 → 50 → 25 → 24 ... 13 by halving and then one less; 40 → 20 → ... → 0.
        assert!(shrunk.steps >= 14, "{}", shrunk.steps);
    }

    #[test]
    fn the_budget_stops_shrinking_and_says_so() {
        let always = |_: &[String]| -> Result<Option<()>> { Ok(Some(())) };
        let shrunk = shrink(words("1000000"), (), 3, always).unwrap();
        assert_eq!(shrunk.args, words("125000"));
        assert!(shrunk.cut_short);
        assert_eq!(shrunk.attempts, 3);
    }
}
